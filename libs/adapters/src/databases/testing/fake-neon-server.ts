import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

interface FakeProject {
  readonly id: string;
  readonly name: string;
  readonly database: string;
  readonly role: string;
  readonly password: string;
  readonly createdAt: string;
}

const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;
const NAME = /^[a-z0-9_]{1,63}$/;

/**
 * A local stand-in for Neon's API v2 (the calls NeonProvisioner makes: list projects with
 * `search`, create a project with a branch's database and role, get a connection URI, delete a
 * project), in Neon's wire shapes, Bearer key checked. Each "Neon project" is a real database on
 * a local PostgreSQL with its owner as a LOGIN CREATEROLE role (like neon_superuser: no superuser),
 * so what the provisioner does over SQL runs for real. `failNext` answers the next calls with 503.
 */
export class FakeNeonServer {
  readonly projects = new Map<string, FakeProject>();
  readonly requests: Array<{ method: string; path: string }> = [];
  failNext = 0;
  private server: Server | null = null;
  private readonly admin: pg.Pool;

  constructor(
    private readonly adminUrl: string,
    readonly apiKey = `neon-test-${randomBytes(8).toString('hex')}`,
  ) {
    this.admin = new pg.Pool({ connectionString: adminUrl, max: 2 });
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo | undefined;
    if (!address) throw new Error('FakeNeonServer is not started');
    return `http://127.0.0.1:${address.port}/api/v2`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => send(res, 500, { code: 'INTERNAL', message: String(error) }));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    for (const project of [...this.projects.values()]) await this.destroy(project);
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    await this.admin.end();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    this.requests.push({ method: req.method ?? '', path: url.pathname });
    if (req.headers.authorization !== `Bearer ${this.apiKey}`) return send(res, 401, { code: '', message: 'authentication required' });
    if (this.failNext > 0) {
      this.failNext -= 1;
      return send(res, 503, { code: '', message: 'service unavailable' });
    }
    const path = url.pathname.replace(/^\/api\/v2/, '');
    if (req.method === 'GET' && path === '/projects') {
      const search = url.searchParams.get('search') ?? '';
      const limit = Number(url.searchParams.get('limit') ?? 10);
      const projects = [...this.projects.values()].filter((p) => p.name.includes(search) || p.id.includes(search)).slice(0, limit);
      return send(res, 200, { projects: projects.map(listItem), pagination: { cursor: projects.at(-1)?.id ?? '' }, applications: {}, integrations: {} });
    }
    if (req.method === 'POST' && path === '/projects') return this.create(await body(req), res);
    const uri = /^\/projects\/([^/]+)\/connection_uri$/.exec(path);
    if (req.method === 'GET' && uri) {
      const project = this.projects.get(decodeURIComponent(uri[1]!));
      if (!project) return send(res, 404, { code: '', message: 'project not found' });
      if (url.searchParams.get('database_name') !== project.database || url.searchParams.get('role_name') !== project.role) {
        return send(res, 404, { code: '', message: 'database or role not found' });
      }
      return send(res, 200, { uri: this.uriOf(project) });
    }
    const one = /^\/projects\/([^/]+)$/.exec(path);
    if (req.method === 'DELETE' && one) {
      const project = this.projects.get(decodeURIComponent(one[1]!));
      if (!project) return send(res, 404, { code: '', message: 'project not found' });
      await this.destroy(project);
      return send(res, 200, { project: projectOf(project) });
    }
    return send(res, 404, { code: '', message: `no route ${req.method} ${path}` });
  }

  private async create(request: unknown, res: ServerResponse): Promise<void> {
    const p = (request as { project?: { name?: unknown; branch?: { database_name?: unknown; role_name?: unknown } } }).project;
    const name = typeof p?.name === 'string' ? p.name : `project-${randomBytes(4).toString('hex')}`;
    const database = typeof p?.branch?.database_name === 'string' ? p.branch.database_name : 'neondb';
    const role = typeof p?.branch?.role_name === 'string' ? p.branch.role_name : `${database}_owner`;
    if (!NAME.test(database) || !NAME.test(role)) return send(res, 400, { code: '', message: 'invalid database or role name' });
    const project: FakeProject = {
      id: `${['spring', 'quiet', 'misty'][this.projects.size % 3]}-${randomBytes(4).toString('hex')}`,
      name,
      database,
      role,
      password: randomBytes(12).toString('hex'),
      createdAt: new Date().toISOString(),
    };
    await this.admin.query(`CREATE ROLE ${ident(role)} LOGIN CREATEROLE PASSWORD ${pg.escapeLiteral(project.password)}`);
    await this.admin.query(`CREATE DATABASE ${ident(database)} OWNER ${ident(role)} TEMPLATE template0`);
    await this.admin.query(`GRANT CONNECT ON DATABASE ${ident(database)} TO ${ident(role)}`);
    this.projects.set(project.id, project);
    const connectionUri = this.uriOf(project);
    const host = new URL(connectionUri).hostname;
    send(res, 201, {
      project: projectOf(project),
      connection_uris: [{ connection_uri: connectionUri, connection_parameters: { database, password: project.password, role, host, pooler_host: host } }],
      roles: [{ branch_id: `br-${project.id}`, name: role, protected: false, created_at: project.createdAt, updated_at: project.createdAt }],
      databases: [{ id: 1, branch_id: `br-${project.id}`, name: database, owner_name: role, created_at: project.createdAt, updated_at: project.createdAt }],
      operations: [],
      branch: { id: `br-${project.id}`, project_id: project.id, name: 'main', default: true, created_at: project.createdAt, updated_at: project.createdAt },
      endpoints: [{ id: `ep-${project.id}`, host, project_id: project.id, branch_id: `br-${project.id}`, type: 'read_write', current_state: 'idle' }],
    });
  }

  private uriOf(project: FakeProject): string {
    const admin = new URL(this.adminUrl);
    return `postgresql://${project.role}:${project.password}@${admin.hostname}:${admin.port || 5432}/${project.database}`;
  }

  private async destroy(project: FakeProject): Promise<void> {
    await this.admin.query(`DROP DATABASE IF EXISTS ${ident(project.database)} WITH (FORCE)`);
    // The roles the project's owner made (its authenticator) go with the project, as on Neon.
    const { rows } = await this.admin.query<{ rolname: string }>('SELECT rolname FROM pg_roles WHERE rolname LIKE $1', [`${project.database}\\_%`]);
    for (const { rolname } of rows) await this.admin.query(`DROP ROLE IF EXISTS ${ident(rolname)}`);
    await this.admin.query(`DROP ROLE IF EXISTS ${ident(project.role)}`);
    this.projects.delete(project.id);
  }
}

function listItem(p: FakeProject) {
  return { ...projectOf(p), active_time: 0, cpu_used_sec: 0 };
}

function projectOf(p: FakeProject) {
  return {
    id: p.id,
    platform_id: 'aws',
    region_id: 'aws-us-east-2',
    name: p.name,
    provisioner: 'k8s-neonvm',
    pg_version: 17,
    proxy_host: 'us-east-2.aws.neon.tech',
    branch_logical_size_limit: 512,
    branch_logical_size_limit_bytes: 536870912,
    store_passwords: true,
    creation_source: 'console',
    history_retention_seconds: 86400,
    created_at: p.createdAt,
    updated_at: p.createdAt,
    owner_id: 'kiln-test',
  };
}

function send(res: ServerResponse, status: number, payload: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(payload));
}

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as unknown;
}
