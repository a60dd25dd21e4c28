/**
 * REPOSITORY_IMPORT_TEST_ORIGINS (tests and local development only): `http://127.0.0.1:<port>`
 * origins of local git servers the repository import may reach (docs/decisions.md "Git import").
 * Anything else, or any value in production, is a configuration problem: real imports are https
 * to public hosts only.
 */
export function parseRepositoryImportTestOrigins(raw: string | undefined, nodeEnv: string, report: (problem: string) => void): readonly string[] {
  const text = raw?.trim() ?? '';
  if (text === '') return [];
  if (nodeEnv === 'production') {
    report('REPOSITORY_IMPORT_TEST_ORIGINS is for tests only and must be empty in production');
    return [];
  }
  const origins = text.split(',').map((item) => item.trim()).filter((item) => item !== '');
  const bad = origins.filter((origin) => !/^http:\/\/127\.0\.0\.1:\d{1,5}$/.test(origin));
  if (bad.length > 0) {
    report(`REPOSITORY_IMPORT_TEST_ORIGINS takes http://127.0.0.1:<port> origins only, got "${bad.join(', ')}"`);
    return [];
  }
  return origins;
}
