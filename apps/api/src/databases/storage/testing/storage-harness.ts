import { DataApiServer, LocalPostgresProvisioner, PgAppAuthStores, PgDataApi, localSchemaMigrator } from '@kiln/adapters';
import { DEFAULT_TEST_DATABASE_URL, loopbackBinaryFetch } from '@kiln/adapters/testing';
import { databaseNames } from '@kiln/domain';
import { InMemoryObjectStore } from '@kiln/domain/testing';
import { type SupabaseClient, createClient } from '@supabase/supabase-js';
import pg from 'pg';
import WebSocket from 'ws';
import { type TestApp, newUser, setPlan, signIn, startTestApp } from '../../../testing/e2e.js';

export const adminUrl = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;

/** The API app (createApp) on real PostgreSQL with a provisioned project database, app sign-in and an in-memory ObjectStore. */
export interface StorageApp {
  readonly t: TestApp;
  readonly objects: InMemoryObjectStore;
  readonly provisioner: LocalPostgresProvisioner;
  readonly ref: string;
  readonly projectId: string;
  readonly anonKey: string;
  readonly port: number;
  readonly dataUrl: string;
  readonly ownerAuth: Readonly<Record<string, string>>;
  /** supabase-js against the data origin, as anon or with an app user's access token. */
  client(token?: string): SupabaseClient;
  /** Signs an app user up through /auth/v1 and answers their id and access token. */
  signUp(name: string): Promise<{ id: string; token: string }>;
  /** SQL as the project database's owner role: what the app's migrations run as. */
  migrate(sql: string): Promise<void>;
  close(): Promise<void>;
}

export async function startStorageApp(options: { plan?: string; env?: Record<string, string> } = {}): Promise<StorageApp> {
  const provisioner = new LocalPostgresProvisioner({ adminUrl });
  const api = new PgDataApi({ statementTimeoutMs: 5000 });
  const appAuthStores = new PgAppAuthStores({ adminUrl });
  const objects = new InMemoryObjectStore();
  const t = await startTestApp({
    ...(options.env === undefined ? {} : { env: options.env }),
    overrides: {
      objectStore: objects,
      databases: {
        provisioner,
        migrator: localSchemaMigrator(adminUrl),
        dataOrigin: (targets, services, quota) => new DataApiServer('http://{ref}.data.localhost:{port}', targets, api, services, () => undefined, quota),
        appAuthStores,
        storage: api,
        close: async () => (await api.close(), await appAuthStores.close()),
      },
    },
  });
  const owner = newUser();
  await signIn(t, owner);
  await setPlan(t, owner.id, options.plan ?? 'pro_monthly');
  const projectId = ((await t.http().post('/api/projects').set(owner.auth).send({ name: 'Storage' }).expect(201)).body as { id: string }).id;
  const provisioned = (await t.http().post('/api/db/provision').set(owner.auth).send({ project_id: projectId }).expect(200)).body as { ref: string; anon_key: string };
  const port = Number(new URL(await t.app.getUrl()).port);
  const { ref, anon_key: anonKey } = provisioned;
  const dataUrl = `http://${ref}.data.localhost:${port}`;
  const client = (token?: string) =>
    createClient(dataUrl, anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never },
      global: { fetch: loopbackBinaryFetch, headers: token === undefined ? {} : { Authorization: `Bearer ${token}` } },
    });
  let dropped = false;
  return {
    t,
    objects,
    provisioner,
    ref,
    projectId,
    anonKey,
    port,
    dataUrl,
    ownerAuth: owner.auth,
    client,
    signUp: async (name) => {
      const made = await client().auth.signUp({ email: `${name}-${ref}@example.com`, password: `${name} has a long password` });
      if (made.error || !made.data.session || !made.data.user) throw new Error(`sign-up failed: ${made.error?.message}`);
      return { id: made.data.user.id, token: made.data.session.access_token };
    },
    migrate: async (sql) => {
      const url = new URL(adminUrl);
      url.pathname = `/${databaseNames(ref).database}`;
      const c = new pg.Client({ connectionString: url.toString() });
      await c.connect();
      try {
        await c.query(`SET ROLE "${databaseNames(ref).owner}"`);
        await c.query(sql);
      } finally {
        await c.end();
      }
    },
    close: async () => {
      if (!dropped) {
        dropped = true;
        await provisioner.drop(ref).catch(() => undefined);
      }
      await t.close();
      await provisioner.close();
    },
  };
}

/** The policies a real app's migration writes: private per-user folders in `private`, a public `avatars`, buckets managed by signed-in users. */
export const APP_POLICIES = `
CREATE POLICY "users manage buckets" ON storage.buckets FOR ALL TO authenticated USING (true) WITH CHECK (true);
CREATE POLICY "own folder" ON storage.objects FOR ALL TO authenticated
  USING (bucket_id <> 'avatars' AND (storage.foldername(name))[1] = auth.uid()::text)
  WITH CHECK (bucket_id <> 'avatars' AND (storage.foldername(name))[1] = auth.uid()::text);
CREATE POLICY "avatars readable" ON storage.objects FOR SELECT TO anon, authenticated USING (bucket_id = 'avatars');
CREATE POLICY "avatars by their owner" ON storage.objects FOR INSERT TO authenticated WITH CHECK (bucket_id = 'avatars' AND owner = auth.uid());
CREATE POLICY "avatars changed by their owner" ON storage.objects FOR UPDATE TO authenticated USING (bucket_id = 'avatars' AND owner = auth.uid());
CREATE POLICY "avatars deleted by their owner" ON storage.objects FOR DELETE TO authenticated USING (bucket_id = 'avatars' AND owner = auth.uid());
`;
