import { parsePlanTable } from './plans-file';
import { playgroundPlanName } from './plans';
import { builtInPlanTable } from '../config';

const BUILT_IN_PLANS = builtInPlanTable();

const valid = JSON.stringify({
  token: { playground_per_day: 10, plans: { free: { monthly_quota: 11500, rate_per_second: 3, price: 0, currency: 'EUR' } } },
});

describe('parsePlanTable', () => {
  it('when the built-in table is written out, then it parses back unchanged', () => {
    expect(parsePlanTable(JSON.stringify(BUILT_IN_PLANS), 'built-in')).toEqual(BUILT_IN_PLANS);
  });

  it('when a file is valid, then its table is returned', () => {
    expect(parsePlanTable(valid, 'plans.json').token?.plans.free?.monthly_quota).toBe(11500);
  });

  it.each([
    ['{', /^plans\.json is not valid JSON: /],
    ['{}', /^plans\.json: the top level must NOT have fewer than 1 properties$/],
    [valid.replace('11500', '-1'), /^plans\.json: token\.plans\.free\.monthly_quota must be >= 1$/],
    [valid.replace('"rate_per_second":3', '"rate_per_second":20000'), /^plans\.json: token\.plans\.free\.rate_per_second must be <= 10000$/],
    [valid.replace('"EUR"', '"euro"'), /^plans\.json: token\.plans\.free\.currency must match pattern/],
    [valid.replace('"price":0', '"price":0,"extra":1'), /token\.plans\.free must NOT have additional properties \('extra'\)$/],
    [valid.replace('"free"', '"Free Plan"'), /^plans\.json: token\.plans has the name 'Free Plan'; names must match/],
    [valid.replace('"playground_per_day":10,', ''), /token must have required property 'playground_per_day'/],
    // A quoted key may hold a line break: the message stays one line.
    [valid.replace('"free"', '"fr\\nee"'), /^plans\.json: token\.plans has the name 'fr\\u000aee'; names must match [^\n]*$/],
    [valid.replace('"price":0', '"price":0,"ex\\ntra":1'), /^plans\.json: token\.plans\.free must NOT have additional properties \('ex\\u000atra'\)$/],
  ])('when the file is %s, then the error is one clear line', (text, message) => {
    expect(() => parsePlanTable(text, 'plans.json')).toThrow(message);
  });
});

describe('playgroundPlanName', () => {
  it.each([
    ['token', 'free'],
    ['logs', 'free'],
  ])('when the API is %s, then playground calls get the %s plan', (api, plan) => {
    expect(playgroundPlanName(BUILT_IN_PLANS[api]!)).toBe(plan);
  });
});
