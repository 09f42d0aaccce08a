/**
 * Connections that may only reach public addresses: a fetch that started at a public host must not be
 * led into this machine or a private network, neither by a redirect (judged per hop in ./node-web.ts)
 * nor by a DNS answer (judged here). The check sits in the lookup the socket connects with, so the
 * address judged is the address connected to: a name that answers public once and internal the next
 * time (DNS rebinding) cannot slip between the check and the connection.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns";
import type { LookupFunction } from "node:net";
import { Agent } from "undici";
import { internalIp } from "../../tools/web/internal-address.js";

/** Why an address is internal, or null for a public one (internalIp unless a test says otherwise). */
export type AddressJudge = (ip: string) => string | null;

/** A connection refused because the host's name answered with an internal address. */
export class InternalAnswerError extends Error {
  override readonly name = "InternalAnswerError";
  readonly code = "EINTERNALANSWER";
  constructor(
    readonly host: string,
    readonly address: string,
    readonly why: string,
  ) {
    super(`${host} resolves to ${address}, ${why}`);
  }
}

/** `lookup` (dns.lookup by default), with every answer judged before the socket may use one. */
function publicOnlyLookup(judge: AddressJudge = internalIp, lookup: LookupFunction = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    const all = (options as LookupAllOptions).all === true;
    lookup(hostname, { ...options, all: true } as LookupAllOptions, (error, answers) => {
      if (error) return callback(error, "", 0);
      const list = (Array.isArray(answers) ? answers : [{ address: answers, family: 4 }]) as LookupAddress[];
      // Any internal answer refuses the name: with several, the socket may try any of them.
      for (const answer of list) {
        const why = judge(answer.address);
        if (why) return callback(new InternalAnswerError(hostname, answer.address, why), "", 0);
      }
      if (all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "", 0);
      (callback as (e: null, a: string, f: number) => void)(null, first.address, first.family);
    });
  };
}

/** An undici dispatcher whose connections go only to public addresses. */
export function publicOnlyAgent(judge?: AddressJudge, lookup?: LookupFunction): Agent {
  return new Agent({ connect: { lookup: publicOnlyLookup(judge, lookup) } });
}
