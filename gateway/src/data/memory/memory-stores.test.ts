import { describeStoreContract } from '../../../test/data/store-contract';
import { createMemoryStores } from './memory-stores';

describeStoreContract('memory', async (clock) => ({ stores: createMemoryStores({ clock }), close: async () => {} }));
