import { type SandboxFiles, isSandboxMissing } from '@kiln/domain';

/** The project's connection file: the data origin and the anon key (public by design), read by Vite as import.meta.env. */
export const CONNECTION_FILE = '.env.local';

export function connectionFileText(url: string, anonKey: string): string {
  return `# Written by Kiln when the database was connected. The anon key is public by design: row-level security decides what it reaches.\nVITE_SUPABASE_URL=${url}\nVITE_SUPABASE_ANON_KEY=${anonKey}\n`;
}

/** Writes the file into the project's sandbox; a project without a sandbox yet gets it at its next provision call. */
export async function writeConnectionFile(files: SandboxFiles, projectId: string, url: string, anonKey: string): Promise<void> {
  try {
    await files.writeFile(projectId, CONNECTION_FILE, connectionFileText(url, anonKey));
  } catch (error) {
    if (!isSandboxMissing(error)) throw error;
  }
}

/** Removes the file when the database is detached or deleted; a missing file or sandbox is fine. */
export async function removeConnectionFile(files: SandboxFiles, projectId: string): Promise<void> {
  await files.deleteFile(projectId, CONNECTION_FILE).catch(() => undefined);
}
