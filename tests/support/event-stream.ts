/** Reading a server-sent event stream as a browser's EventSource would, for the progress stream tests. */

export type StreamEvent = { event: string; id: string | null; data: any };

export type OpenedStream = {
  status: number;
  headers: Headers;
  /** the JSON body of an answer that is not a stream (an error envelope); null for a stream */
  body: any;
  /** the next event, or null once the server has ended the stream */
  next: () => Promise<StreamEvent | null>;
  /** every event until the server ends the stream */
  rest: () => Promise<StreamEvent[]>;
  /** the client goes away */
  close: () => void;
};

/** Opens `path` as an event stream with these headers (a cookie, an API key, Last-Event-ID…). */
export const openStream = async (
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<OpenedStream> => {
  const controller = new AbortController();
  const response = await fetch(`${base}${path}`, { headers, signal: controller.signal });
  const isStream = (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
  if (!isStream || !response.body) {
    const text = await response.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      // 204 and the like: no body
    }
    return {
      status: response.status,
      headers: response.headers,
      body,
      next: async () => null,
      rest: async () => [],
      close: () => undefined,
    };
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let done = false;
  const next = async (): Promise<StreamEvent | null> => {
    for (;;) {
      const boundary = buffer.indexOf("\n\n");
      if (boundary >= 0) {
        const block = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        let event = "message";
        let id: string | null = null;
        const data: string[] = [];
        for (const line of block.split("\n")) {
          if (line.startsWith(":")) continue;
          const [field, ...value] = line.split(":");
          const text = value.join(":").replace(/^ /, "");
          if (field === "event") event = text;
          else if (field === "id") id = text;
          else if (field === "data") data.push(text);
        }
        // a block of comments or of `retry` alone is no event
        if (data.length === 0) continue;
        return { event, id, data: JSON.parse(data.join("\n")) };
      }
      if (done) return null;
      try {
        const chunk = await reader.read();
        if (chunk.done) done = true;
        else buffer += chunk.value;
      } catch {
        done = true;
      }
    }
  };
  const rest = async () => {
    const events: StreamEvent[] = [];
    for (let event = await next(); event; event = await next()) events.push(event);
    return events;
  };
  return {
    status: response.status,
    headers: response.headers,
    body: null,
    next,
    rest,
    close: () => controller.abort(),
  };
};
