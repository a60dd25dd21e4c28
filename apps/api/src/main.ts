import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';
import { loadConfig, type AppConfig } from './config.js';

function readConfig(): AppConfig {
  try {
    return loadConfig(process.env);
  } catch (error) {
    console.error(`Invalid configuration: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

async function bootstrap(): Promise<void> {
  const config = readConfig();
  const app = await NestFactory.create(AppModule);
  app.enableShutdownHooks();
  await app.listen(config.port);
}

void bootstrap();
