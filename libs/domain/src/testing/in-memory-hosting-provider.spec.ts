import { hostingProviderContract } from './contracts/hosting-provider.contract.js';
import { InMemoryHostingProvider } from './in-memory-hosting.js';

hostingProviderContract('InMemoryHostingProvider', async () => {
  const provider = new InMemoryHostingProvider();
  let n = 0;
  return {
    provider,
    sandbox: async (kind) => {
      const id = `sandbox-${++n}`;
      if (kind === 'fails') provider.failBuildsOf(id, "src/App.tsx (3:1): Expected ';' but found 'oops'");
      return id;
    },
    served: async (host) => provider.served(host),
  };
});
