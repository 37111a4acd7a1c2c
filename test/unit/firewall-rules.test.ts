import { describe, expect, it } from 'vitest';
import { compileFirewall, isOurRule, nextRuleStep, portProblem, ruleKey, ruleProblems, sourceProblem, type HeldRule, type ProxmoxRule } from '../../src/domain/firewall-rules';

const rule = (dport: string, comment = `pvecp: ${dport}`): ProxmoxRule => ({ type: 'in', action: 'ACCEPT', proto: 'tcp', dport, comment, enable: 1 });

/** Applies steps as Proxmox would (a new rule goes first, `moveto` goes before the rule there) until none is left; answers the list and the writes. */
function converge(held: HeldRule[], wanted: ProxmoxRule[]): { rules: HeldRule[]; writes: number } {
  let rules = [...held];
  let writes = 0;
  for (let step = nextRuleStep(rules, wanted); step; step = nextRuleStep(rules, wanted)) {
    writes++;
    if (writes > 500) throw new Error('does not converge');
    if (step.op === 'delete') rules.splice(step.pos, 1);
    else if (step.op === 'move') {
      const [moved] = rules.splice(step.from, 1);
      rules.splice(step.to, 0, moved!);
    } else rules = [...rules.slice(0, step.at), step.rule, ...rules.slice(step.at)];
  }
  return { rules, writes };
}

describe('a server firewall compiled for Proxmox', () => {
  it('splits sources by address family and icmp into ICMPv4 and ICMPv6, with the marker and the customer comment', () => {
    const compiled = compileFirewall(
      {
        inboundPolicy: 'drop',
        rules: [
          { action: 'accept', protocol: 'tcp', port: '8000-8100', sources: ['10.0.0.0/8', '2001:db8::/32', '192.0.2.1'], comment: 'app' },
          { action: 'drop', protocol: 'icmp', sources: [], comment: '' },
          { group: 'fwg_a' },
          { group: 'fwg_gone' },
        ],
      },
      new Map([['fwg_a', [{ action: 'accept', protocol: 'udp', port: '53', sources: [], comment: 'dns' }]]]),
    );
    expect(compiled).toEqual([
      { type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '8000:8100', source: '10.0.0.0/8,192.0.2.1', comment: 'pvecp: app', enable: 1 },
      { type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '8000:8100', source: '2001:db8::/32', comment: 'pvecp: app', enable: 1 },
      { type: 'in', action: 'DROP', proto: 'icmp', comment: 'pvecp:', enable: 1 },
      { type: 'in', action: 'DROP', proto: 'ipv6-icmp', comment: 'pvecp:', enable: 1 },
      { type: 'in', action: 'ACCEPT', proto: 'udp', dport: '53', comment: 'pvecp fwg_a: dns', enable: 1 },
    ]);
    expect(compiled.every((r) => isOurRule(r.comment))).toBe(true);
    expect(isOurRule('pvecpx: no')).toBe(false);
    expect(isOurRule('allow monitoring')).toBe(false);
  });

  it('checks sources and ports with their field named', () => {
    expect(sourceProblem('10.0.0.0/8')).toBeUndefined();
    expect(sourceProblem('2001:db8::1')).toBeUndefined();
    expect(sourceProblem('10.0.0.1/8')).toBe('host bits set: the network is 10.0.0.0/8');
    expect(sourceProblem('10.0.0.300')).toBe('not an IP address or CIDR');
    expect(sourceProblem('10.0.0.0/33')).toBe('not a CIDR');
    expect(portProblem('0')).toBe('ports are 1-65535');
    expect(portProblem('9-8')).toBe('a range goes from the lower port to the higher');
    expect(portProblem('80,443')).toBe('a port (443) or a range (8000-8100)');
    expect(ruleProblems({ action: 'accept', protocol: 'any', port: '80', sources: ['x'], comment: 'a#b' })).toEqual({
      port: 'only tcp and udp rules have ports',
      'sources.0': 'not an IP address or CIDR',
      comment: 'one line, without #',
    });
  });
});

describe('converging the guest rules one write at a time', () => {
  const wanted = ['1', '2', '3', '4', '5'].map((p) => rule(p));

  it('writes nothing when Proxmox holds the rules', () => {
    expect(nextRuleStep(wanted, wanted)).toBeNull();
    expect(converge(wanted, wanted).writes).toBe(0);
  });

  it.each([
    ['an empty list', []],
    ['a reversed list', [...wanted].reverse()],
    ['a rule deleted by hand', wanted.filter((_, i) => i !== 2)],
    ['a rule changed by hand', wanted.map((r, i) => (i === 1 ? { ...r, dport: '9999' } : r))],
    ['duplicates left by a crash', [wanted[0]!, wanted[0]!, ...wanted.slice(1), wanted[4]!]],
    ['a disabled copy', wanted.map((r, i) => (i === 0 ? { ...r, enable: 0 } : r))],
  ])('from %s, ends exactly at the wanted rules', (_, held) => {
    expect(converge(held as HeldRule[], wanted).rules.map(ruleKey)).toEqual(wanted.map(ruleKey));
  });

  it('keeps rules someone else wrote (no marker) after ours, in their order', () => {
    const foreign: HeldRule[] = [
      { type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '10050', comment: 'monitoring', enable: 1 },
      { type: 'out', action: 'DROP', proto: 'tcp', dport: '25', enable: 1 },
    ];
    const { rules } = converge([foreign[0]!, wanted[3]!, foreign[1]!, wanted[0]!], wanted);
    expect(rules.map(ruleKey)).toEqual([...wanted, ...foreign].map(ruleKey));
  });
});
