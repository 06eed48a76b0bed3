import { resourceMissing } from '../http/stripe-error';

/** What every stored Stripe object has. */
export interface Stored {
  id: string;
  created: number;
}

/**
 * One resource's objects, in memory. `all()` is Stripe's list order: newest first, and among
 * objects created in the same second the later one first.
 */
export class Collection<T extends Stored> {
  private readonly items = new Map<string, T>();
  private readonly order = new Map<string, number>();
  private counter = 0;

  /** `resource` names the object in "No such customer: 'cus_…'". */
  constructor(readonly resource: string) {}

  add(item: T): T {
    this.items.set(item.id, item);
    this.order.set(item.id, this.counter++);
    return item;
  }

  get(id: string): T | undefined {
    return this.items.get(id);
  }

  /** The object, or Stripe's 404 naming `param`. */
  require(id: string, param = 'id'): T {
    const item = this.items.get(id);
    if (!item) throw resourceMissing(this.resource, id, param);
    return item;
  }

  delete(id: string): void {
    this.items.delete(id);
    this.order.delete(id);
  }

  /** Every object in the order it was added: what a state file keeps ({@link restore} takes it back). */
  saved(): T[] {
    return [...this.items.values()];
  }

  /** Replaces the contents with `items`, in the order they were added. */
  restore(items: readonly T[]): void {
    this.items.clear();
    this.order.clear();
    this.counter = 0;
    for (const item of items) this.add(item);
  }

  all(): T[] {
    return [...this.items.values()].sort((a, b) => b.created - a.created || (this.order.get(b.id) ?? 0) - (this.order.get(a.id) ?? 0));
  }
}
