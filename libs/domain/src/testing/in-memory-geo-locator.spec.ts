import { geoLocatorContract } from './contracts/geo-locator.contract.js';
import { locationDetectionFailed, locationHttpError, locationUnavailable } from '../geo/geo-locator.port.js';
import { InMemoryGeoLocator } from './in-memory-geo-locator.js';

geoLocatorContract('InMemoryGeoLocator', async () => {
  const locator = new InMemoryGeoLocator();
  const unreachable = new InMemoryGeoLocator();
  unreachable.failWith = locationUnavailable();
  return {
    locator,
    unreachable,
    place: async (ip, countryCode, country, city) => void locator.place(ip, { countryCode, country, city }),
    breakWith: async (failure) => {
      locator.failWith = failure === 'unsuccessful' ? locationDetectionFailed() : locationHttpError(failure.status);
    },
    repair: async () => {
      locator.failWith = null;
    },
  };
});
