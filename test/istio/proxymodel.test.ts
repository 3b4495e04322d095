// ProxyConfig's model of a release is that release's, whichever releases were modelled before it in
// the same process: a field one release adds (Topology.proxy_protocol in 1.17, ClientTLSSettings.ca_crl
// in 1.20) is there from that release, and not before.

import { describe, expect, it } from 'vitest';
import { proxyModel } from '../../src/istio/proxyconfig.js';
import { parseIstioVersion } from '../../src/istio/version.js';
import type { Msg } from '../../src/istio/proto.js';

const v = parseIstioVersion;
const sub = (m: Msg, field: string): Msg => m.fields.find((f) => f.proto === field)!.type as Msg;
const names = (m: Msg): string[] => m.fields.map((f) => f.proto);
const topology = (release: string) => names(sub(proxyModel(v(release)).ProxyConfig, 'gateway_topology'));

describe('the ProxyConfig model of each release', () => {
  it('has the fields of that release, asked in any order', () => {
    // older first, then newer: the older's model must not stand in for the newer one
    expect(topology('1.14')).not.toContain('proxy_protocol');
    expect(topology('1.17')).toContain('proxy_protocol');
    expect(topology('1.16')).not.toContain('proxy_protocol');
    expect(names(proxyModel(v('1.19')).ClientTLSSettings)).not.toContain('ca_crl');
    expect(names(proxyModel(v('1.20')).ClientTLSSettings)).toContain('ca_crl');
    expect(names(proxyModel(v('1.18')).ClientTLSSettings)).not.toContain('ca_crl');
  });
});
