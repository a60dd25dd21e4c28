import { type Result, err, ok } from '../../shared/result.js';
import { type DatabaseServerUnavailable, DatabaseServerDown, databaseServerUnavailable } from '../databases.errors.js';

/** Runs a provisioner call; a provider that is down becomes DATABASES.SERVER_UNAVAILABLE, anything else is a bug and rethrown. */
export async function providerCall<T>(call: () => Promise<T>): Promise<Result<T, DatabaseServerUnavailable>> {
  try {
    return ok(await call());
  } catch (error) {
    if (error instanceof DatabaseServerDown) return err(databaseServerUnavailable(error.message));
    throw error;
  }
}
