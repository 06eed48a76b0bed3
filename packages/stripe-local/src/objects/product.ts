import type { Metadata } from '../core/read-metadata';

/** A Stripe Product. */
export interface Product {
  id: string;
  object: 'product';
  active: boolean;
  created: number;
  default_price: string | null;
  description: string | null;
  images: string[];
  livemode: false;
  marketing_features: { name: string }[];
  metadata: Metadata;
  name: string;
  package_dimensions: null;
  shippable: null;
  statement_descriptor: string | null;
  tax_code: null;
  type: 'service';
  unit_label: string | null;
  updated: number;
  url: string | null;
}

/** A new product with Stripe's defaults. */
export function newProduct(id: string, created: number, fields: Pick<Product, 'name'> & Partial<Product>): Product {
  return {
    id,
    object: 'product',
    active: true,
    created,
    default_price: null,
    description: null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: {},
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    type: 'service',
    unit_label: null,
    updated: created,
    url: null,
    ...fields,
  };
}
