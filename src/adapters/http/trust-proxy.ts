/**
 * PACER_TRUST_PROXY as loaded: off (`false`), every peer (`true`), the n hops nearest the server, or
 * the proxies' addresses and CIDR ranges (and proxy-addr's names `loopback`, `linklocal`,
 * `uniquelocal`). Only a trusted peer's X-Forwarded-Proto, -Host and -For are read.
 */
export type TrustProxySetting = boolean | number | readonly string[];

export type FastifyTrustProxy = boolean | string[] | ((address: string, hop: number) => boolean);

/**
 * The value for Fastify's `trustProxy`. Fastify ignores a bare hop count (it cannot tell the proxy
 * from a client that connects directly), so a count becomes the function Express uses: trust the
 * first n hops, whoever they are. That is only safe when nothing but the proxy can reach Pacer.
 */
export function fastifyTrustProxy(setting: TrustProxySetting): FastifyTrustProxy {
  if (typeof setting === 'boolean') return setting;
  if (typeof setting === 'number') {
    const hops = setting;
    return hops <= 0 ? false : (_address, hop) => hop < hops;
  }
  return setting.length === 0 ? false : [...setting];
}
