import { InMemoryLocalCheckoutStore } from './local-checkout-store.js';
import { localCheckoutStoreContract } from './testing/local-checkout-store.contract.js';

localCheckoutStoreContract('InMemoryLocalCheckoutStore', async () => new InMemoryLocalCheckoutStore());
