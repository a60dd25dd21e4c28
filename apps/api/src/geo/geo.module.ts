import { type DynamicModule, Module } from '@nestjs/common';
import { IpWhoIsGeoLocator } from '@kiln/adapters';
import { DecideCheckoutCurrency, type GeoLocator, ok } from '@kiln/domain';
import { useCase } from '../common/use-case.provider.js';
import type { AppConfig } from '../config.js';
import { CLOCK, GEO_LOCATOR, PROFILE_REPOSITORY } from '../tokens.js';
import { CurrencyController } from './currency.controller.js';

/** Without GEOLOCATION_URL nobody is located: a null country, so SPEC §9 charges USD. */
const noLookup: GeoLocator = { locate: async () => ok({ countryCode: null }) };

/** The checkout currency (SPEC §7, §9): decided on the server from the visitor's IP. */
@Module({})
export class GeoModule {
  static forRoot(config: AppConfig): DynamicModule {
    const { urlTemplate, timeoutMs } = config.geo;
    const locator = urlTemplate === null ? noLookup : new IpWhoIsGeoLocator({ urlTemplate, timeoutMs });
    return {
      module: GeoModule,
      controllers: [CurrencyController],
      providers: [{ provide: GEO_LOCATOR, useValue: locator }, useCase(DecideCheckoutCurrency, [GEO_LOCATOR, PROFILE_REPOSITORY, CLOCK])],
    };
  }
}
