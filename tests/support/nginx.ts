/**
 * A real HTTP cache server for tests: Debian's nginx with its WebDAV module, on a free loopback
 * port, storing what is PUT under a temporary root — the setup the README documents for a shared
 * cache. Tests skip with a clear message when nginx is not installed.
 *
 * @module
 */
import { join } from "node:path";
import { tempDir } from "./temp.ts";

/** A running nginx. */
export interface CacheServer {
  /** Base URL of the cache, e.g. `http://127.0.0.1:40123/cache`. */
  readonly url: string;
  /** The folder nginx stores PUT files under (`<root>/cache/ac/…`, `<root>/cache/cas/…`). */
  readonly root: string;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"];
/** How long a stopped nginx may take to exit before it is killed. */
const STOP_GRACE_MS = 3000;

/** The nginx binary, or undefined (then tests skip). */
export function findNginx(): string | undefined {
  for (const path of NGINX) {
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch { /* not here */ }
  }
  return undefined;
}

/** The skip message for tests that need nginx. */
export const NO_NGINX =
  "nginx is not installed (apt-get install nginx): remote cache tests against a real server skipped";

/**
 * Starts nginx serving a WebDAV `/cache/` on 127.0.0.1; resolves once it answers. `extra` is more
 * configuration for that server block, with `ROOT` standing for its root (a location configured as
 * users misconfigure it, say).
 *
 * @example
 * ```ts
 * const server = await startCacheServer();
 * try { … } finally { await server.stop(); }
 * ```
 */
export async function startCacheServer(extra = ""): Promise<CacheServer> {
  const binary = findNginx();
  if (!binary) throw new Error(NO_NGINX);
  const dir = await tempDir({ prefix: "partgraph-nginx-" });
  const root = join(dir, "root");
  await Deno.mkdir(join(root, "cache"), { recursive: true });
  const port = freePort();
  const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
  const config = `
daemon off;
master_process off;
worker_processes 1;
pid ${join(dir, "nginx.pid")};
error_log ${join(dir, "error.log")} warn;
events { worker_connections 256; }
http {
  access_log off;
  ${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp).join("\n  ")}
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location /cache/ {
      dav_methods PUT DELETE;
      create_full_put_path on;
      dav_access user:rw group:r all:r;
      client_max_body_size 0;
    }
    ${extra.replaceAll("ROOT", root)}
  }
}
`;
  await Deno.writeTextFile(join(dir, "nginx.conf"), config);
  const child = new Deno.Command(binary, {
    args: ["-c", join(dir, "nginx.conf"), "-p", dir, "-e", join(dir, "error.log")],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const url = `http://127.0.0.1:${port}/cache`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const response = await fetch(`${url}/probe`, { signal: AbortSignal.timeout(1000) });
      await response.body?.cancel();
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        const { stderr } = await child.output();
        throw new Error(`nginx did not start: ${new TextDecoder().decode(stderr)}`);
      }
      await new Promise((done) => setTimeout(done, 50));
    }
  }
  let stopped = false;
  return {
    url,
    root: join(root, "cache"),
    async stop() {
      if (stopped) return;
      stopped = true;
      child.kill("SIGTERM");
      // Seen once here: nginx in single-process mode closed its listening socket on SIGTERM, then slept
      // in epoll_wait for ten minutes, and the test waiting for it with it. A test must not wait forever.
      const killer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* it ended meanwhile */ }
      }, STOP_GRACE_MS);
      await child.output().catch(() => {});
      clearTimeout(killer);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** A loopback port nobody listens on right now. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}
