import autocannon from 'autocannon';

export interface LoadResult {
  title: string;
  requestsPerSecond: number;
  p99Ms: number;
  p50Ms: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  title: string;
  baseUrl: string;
  /** Paths to cycle through, so caches and one hot row do not flatter the figures. */
  paths: string[];
  connections: number;
  durationSeconds: number;
  /** Sent with every request (e.g. a bearer token). */
  headers?: Record<string, string>;
}

/** Runs autocannon against a list of paths and returns throughput and latency. */
export async function measureLoad(options: LoadOptions): Promise<LoadResult> {
  let next = 0;
  const result = await autocannon({
    url: options.baseUrl,
    connections: options.connections,
    duration: options.durationSeconds,
    ...(options.headers ? { headers: options.headers } : {}),
    requests: [
      {
        setupRequest: (request) => {
          request.path = options.paths[next++ % options.paths.length]!;
          return request;
        },
      },
    ],
  });
  return {
    title: options.title,
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    p50Ms: result.latency.p50,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
