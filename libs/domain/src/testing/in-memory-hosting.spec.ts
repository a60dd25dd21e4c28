import { dnsResolverContract } from './contracts/dns-resolver.contract.js';
import { InMemoryDnsResolver } from './in-memory-hosting.js';

dnsResolverContract('InMemoryDnsResolver', async () => {
  const resolver = new InMemoryDnsResolver();
  const unavailable = new InMemoryDnsResolver();
  unavailable.unavailable = true;
  // The in-memory resolver keeps one address list per name: A and AAAA are merged into it.
  const v4 = new Map<string, string[]>();
  const v6 = new Map<string, string[]>();
  const setAddresses = (name: string) => resolver.setAddresses(name, ...(v4.get(name) ?? []), ...(v6.get(name) ?? []));
  return {
    resolver,
    unavailable,
    records: {
      setTxt: async (name, ...values) => resolver.setTxt(name, ...values),
      setCname: async (name, target) => resolver.setCname(name, target),
      setA: async (name, ...addresses) => {
        v4.set(name, addresses);
        setAddresses(name);
      },
      setAaaa: async (name, ...addresses) => {
        v6.set(name, addresses);
        setAddresses(name);
      },
    },
  };
});
