import { connect } from "node:net";

/**
 * Raw bytes on a socket, for what an HTTP client library would refuse to send. It writes and
 * does not half-close: a server that sees the end of the request stream drops the request.
 */
export const rawRequest = (base: string, payload: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(payload));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
    });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
    socket.setTimeout(5_000, () => {
      socket.destroy();
      resolve(answer);
    });
  });

export const statusOf = (answer: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);

export const headerOf = (answer: string, name: string): string | undefined =>
  new RegExp(`^${name}: (.*)$`, "im").exec(answer.slice(0, answer.indexOf("\r\n\r\n")))?.[1]?.trim();

export const bodyOf = (answer: string): Record<string, unknown> =>
  JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as Record<string, unknown>;
