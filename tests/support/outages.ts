import { type ChildProcess, spawn } from "node:child_process";
import { type AddressInfo, connect, createServer, type Server, type Socket } from "node:net";
import { resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");

/**
 * A TCP relay in front of a real server, which a test can cut and restore: cut, it drops every
 * connection and refuses new ones, which is what a client sees of a server that went away.
 */
export type Relay = {
  port: number;
  cut: () => Promise<void>;
  restore: () => Promise<void>;
  close: () => Promise<void>;
};

export const startRelay = async (target: { host: string; port: number }): Promise<Relay> => {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((done, fail) => {
      if (server) return done();
      const listening = createServer((client) => {
        const upstream = connect(target);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => undefined);
        }
        client.pipe(upstream).pipe(client);
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      server = listening;
      listening.once("error", fail);
      listening.listen(port, "127.0.0.1", () => {
        port = (listening.address() as AddressInfo).port;
        done();
      });
    });
  const cut = () =>
    new Promise<void>((done) => {
      for (const socket of sockets) socket.destroy();
      if (!server) return done();
      server.close(() => done());
      server = null;
    });
  await listen();
  return { port, cut, restore: listen, close: cut };
};

/**
 * A throwaway redis-server on a port of its own, which a test may kill and start again, or
 * pause (SIGSTOP: connections stay open and nothing answers, as a Redis stuck on a slow disk
 * or a starved CPU) and resume.
 */
export type RedisServer = {
  url: string;
  port: number;
  kill: () => Promise<void>;
  start: () => Promise<void>;
  pause: () => void;
  resume: () => void;
};

export const startRedisServer = async (): Promise<RedisServer> => {
  const probe = createServer();
  const port = await new Promise<number>((done) =>
    probe.listen(0, "127.0.0.1", () => done((probe.address() as AddressInfo).port)),
  );
  await new Promise<void>((done) => probe.close(() => done()));
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    });
    // ready when it accepts connections
    for (let i = 0; i < 100; i++) {
      const up = await new Promise<boolean>((done) => {
        const socket = connect({ host: "127.0.0.1", port }, () => {
          socket.destroy();
          done(true);
        });
        socket.on("error", () => done(false));
      });
      if (up) return;
      await new Promise((done) => setTimeout(done, 50));
    }
    throw new Error("redis-server did not start");
  };
  const kill = () =>
    new Promise<void>((done) => {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return done();
      running.once("exit", () => done());
      running.kill("SIGKILL");
    });
  const signal = (name: NodeJS.Signals) => () => {
    const running = child as ChildProcess | null;
    if (running && running.exitCode === null) running.kill(name);
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, kill, start, pause: signal("SIGSTOP"), resume: signal("SIGCONT") };
};

/** A real worker process (services/worker/src/main.ts), in one Node process that SIGKILL ends. */
export type WorkerProcess = { process: ChildProcess; output: () => string; stop: () => Promise<void> };

export const startWorkerProcess = (env: Record<string, string>): Promise<WorkerProcess> =>
  new Promise((done, fail) => {
    // node with tsx's loader, not the tsx CLI, which would run the worker in a child process
    const child = spawn(process.execPath, ["--import", "tsx", resolve(ROOT, "services/worker/src/main.ts")], {
      cwd: ROOT,
      // any free ops port unless the test names one: never the default, which a running worker holds
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/tmp",
        METRICS_PORT: "0",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const timer = setTimeout(() => fail(new Error(`worker did not start:\n${output}`)), 45_000);
    const stop = () =>
      new Promise<void>((stopped) => {
        if (child.exitCode !== null || child.signalCode !== null) return stopped();
        child.once("exit", () => stopped());
        child.kill("SIGTERM");
      });
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"msg":"worker started"')) {
        clearTimeout(timer);
        done({ process: child, output: () => output, stop });
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      fail(new Error(`worker exited (${code ?? signal}) before it started:\n${output}`));
    });
  });

/** Polls until check answers true, or fails after timeoutMs: for states that come from outside. */
export const eventually = async (check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> => {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
};
