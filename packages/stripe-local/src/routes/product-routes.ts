import type { Context } from '../core/context';
import { createId } from '../core/create-id';
import type { Params } from '../core/params';
import { readMetadata } from '../core/read-metadata';
import type { ApiRoute } from '../http/api-route';
import { invalidRequest } from '../http/stripe-error';
import { newProduct } from '../objects/product';
import type { Product } from '../objects/product';
import { listRoute, retrieveRoute, sameBoolean } from './list-routes';

const EDITABLE = ['name', 'active', 'description', 'metadata', 'statement_descriptor', 'unit_label', 'url', 'images'];

/** `/v1/products`: create (with an id of the caller's choosing, if wanted), retrieve, update, list, delete. */
export function productRoutes(ctx: Context): ApiRoute[] {
  return [
    {
      method: 'POST',
      pattern: '/v1/products',
      handler: ({ params, request }) => {
        params.allow('id', ...EDITABLE);
        const id = params.string('id') ?? createId('prod_', 14);
        if (!/^[A-Za-z0-9_-]{1,255}$/.test(id)) throw invalidRequest('Invalid id: use letters, digits, _ and -.', { param: 'id' });
        if (ctx.store.products.get(id)) throw invalidRequest('Product already exists.', { param: 'id', code: 'resource_already_exists' });
        const at = ctx.now();
        const product = newProduct(id, at, { name: params.requireString('name') });
        applyFields(product, params);
        ctx.store.products.add(product);
        ctx.emit('product.created', product, { at, request });
        return product;
      },
    },
    retrieveRoute('/v1/products', ctx.store.products),
    {
      method: 'POST',
      pattern: '/v1/products/:id',
      handler: ({ params, path, request }) => {
        params.allow('default_price', ...EDITABLE);
        const product = ctx.store.products.require(path.id!);
        const before = ctx.snapshot(product);
        const defaultPrice = params.string('default_price');
        if (defaultPrice && ctx.store.prices.require(defaultPrice, 'default_price').product !== product.id) {
          throw invalidRequest(`The price ${defaultPrice} does not belong to this product.`, { param: 'default_price' });
        }
        if (defaultPrice || params.isEmpty('default_price')) product.default_price = defaultPrice ?? null;
        applyFields(product, params);
        product.updated = ctx.now();
        ctx.emit('product.updated', product, { at: product.updated, request }, before);
        return product;
      },
    },
    listRoute('/v1/products', ctx.store.products, {
      active: sameBoolean((product) => product.active),
      ids: (params, name) => {
        const ids = params.strings(name);
        return ids.length === 0 ? undefined : (product) => ids.includes(product.id);
      },
    }),
    {
      method: 'DELETE',
      pattern: '/v1/products/:id',
      handler: ({ params, path, request }) => {
        params.allow();
        const product = ctx.store.products.require(path.id!);
        if (ctx.store.prices.all().some((price) => price.product === product.id)) {
          throw invalidRequest('This product cannot be deleted because it has one or more user-created prices.');
        }
        ctx.store.products.delete(product.id);
        ctx.emit('product.deleted', product, { at: ctx.now(), request });
        return { id: product.id, object: 'product', deleted: true };
      },
    },
  ];
}

function applyFields(product: Product, params: Params): void {
  product.name = params.string('name') ?? product.name;
  product.active = params.boolean('active') ?? product.active;
  for (const field of ['description', 'statement_descriptor', 'unit_label', 'url'] as const) {
    if (params.has(field)) product[field] = params.string(field) ?? null;
  }
  if (params.has('images')) product.images = params.strings('images');
  product.metadata = readMetadata(params, product.metadata);
}
