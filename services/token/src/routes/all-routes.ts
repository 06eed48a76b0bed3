import type { RouteDoc } from '@tollgate/envelope';
import { changeRoute } from './change-route';
import { chartRoute } from './chart-route';
import { healthzRoute, readyzRoute } from './health-docs';
import { historicalRoute } from './historical-route';
import { metaRoute } from './meta-route';
import { priceRoute } from './price-route';

/** Every documented route, in the order the OpenAPI document lists them. */
export const ALL_ROUTES: readonly RouteDoc[] = [priceRoute, historicalRoute, chartRoute, changeRoute, metaRoute, healthzRoute, readyzRoute];
