export { refusedAddressKind, type RefusedAddressKind } from './egress-addresses.js';
export { DEFAULT_NPM_REGISTRY, registryFromEnv } from './egress-targets.js';
export { EGRESS_FORWARDER_RELATIVE_PATH, type EgressForwarderPaths, installEgressForwarder, throughEgressForwarder } from './egress-forwarder.js';
export {
  EGRESS_CONNECT_TIMEOUT_MS,
  EGRESS_IDLE_TIMEOUT_MS,
  EGRESS_MAX_TUNNELS,
  RegistryEgressProxy,
  type RegistryEgressProxyOptions,
} from './registry-egress-proxy.js';
