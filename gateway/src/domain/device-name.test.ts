import fc from 'fast-check';
import { deviceName } from './device-name';

describe('deviceName', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0', 'Edge on Windows'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36', 'Chrome on Linux'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1', 'Safari on iPhone'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:120.0) Gecko/20100101 Firefox/120.0', 'Firefox on macOS'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36', 'Chrome on Android'],
    ['curl/8.4.0', 'curl'],
    ['', 'Unknown device'],
    [undefined, 'Unknown device'],
  ])('when the User-Agent is %j, then the device is %j', (ua, name) => {
    expect(deviceName(ua)).toBe(name);
  });

  it('when the User-Agent is anything at all, then the name is one of the few it is built from, never the header itself', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (ua) => {
        expect(deviceName(ua)).toMatch(/^(?:(?:Edge|Opera|Samsung Internet|Firefox|Chrome|Safari|curl)(?: on (?:iPhone|iPad|Android|ChromeOS|Windows|macOS|Linux))?|iPhone|iPad|Android|ChromeOS|Windows|macOS|Linux|Unknown device)$/);
      }),
    );
  });
});
