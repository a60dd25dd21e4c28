import { Module } from '@nestjs/common';
import { TemplateCatalog } from '@kiln/domain';
import { OfflineTemplateFiles } from '@kiln/offline-assistant';

/**
 * The one TemplateCatalog of the app: its files are the offline generator's apps (real Vite +
 * React projects, proved to type-check and build), whatever AI provider is configured.
 */
@Module({
  providers: [{ provide: TemplateCatalog, useValue: new TemplateCatalog(new OfflineTemplateFiles()) }],
  exports: [TemplateCatalog],
})
export class TemplateCatalogModule {}
