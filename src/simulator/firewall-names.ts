/**
 * The names a firewall rule may use, as a Proxmox VE node knows them: IP protocols and TCP/UDP
 * services from Debian's netbase (`/etc/protocols`, `/etc/services`; pve-firewall's
 * get_etc_protocols and get_etc_services read these files), the ICMP types iptables knows, and
 * pve-firewall's macros (Firewall.pm, `$pve_fw_macros` and `$pve_ipv6fw_macros`).
 */

/** `/etc/protocols`: name and number, as get_etc_protocols reads them (plus its own `icmpv6`). */
const PROTOCOL_TABLE = `
  ip:0 hopopt:0 icmp:1 igmp:2 ggp:3 ipencap:4 st:5 tcp:6 egp:8 igp:9 pup:12 udp:17 hmp:20 xns-idp:22 rdp:27
  iso-tp4:29 dccp:33 xtp:36 ddp:37 idpr-cmtp:38 ipv6:41 ipv6-route:43 ipv6-frag:44 idrp:45 rsvp:46 gre:47
  esp:50 ah:51 skip:57 ipv6-icmp:58 ipv6-nonxt:59 ipv6-opts:60 rspf:73 vmtp:81 eigrp:88 ospf:89 ax.25:93
  ipip:94 etherip:97 encap:98 pim:103 ipcomp:108 vrrp:112 l2tp:115 isis:124 sctp:132 fc:133
  mobility-header:135 udplite:136 mpls-in-ip:137 manet:138 hip:139 shim6:140 wesp:141 rohc:142 ethernet:143
  mptcp:262
`;

/** `/etc/services`: each service's first name and its port, as get_etc_services reads them. */
const SERVICE_TABLE = `
  tcpmux:1 echo:7 discard:9 systat:11 daytime:13 netstat:15 qotd:17 chargen:19 ftp-data:20 ftp:21 fsp:21
  ssh:22 telnet:23 smtp:25 time:37 whois:43 tacacs:49 domain:53 bootps:67 bootpc:68 tftp:69 gopher:70
  finger:79 http:80 kerberos:88 iso-tsap:102 acr-nema:104 pop3:110 sunrpc:111 auth:113 nntp:119 ntp:123
  epmap:135 netbios-ns:137 netbios-dgm:138 netbios-ssn:139 imap2:143 snmp:161 snmp-trap:162 cmip-man:163
  cmip-agent:164 mailq:174 xdmcp:177 bgp:179 smux:199 qmtp:209 z3950:210 ipx:213 ptp-event:319
  ptp-general:320 pawserv:345 zserv:346 rpc2portmap:369 codaauth2:370 clearcase:371 ldap:389 svrloc:427
  https:443 snpp:444 microsoft-ds:445 kpasswd:464 submissions:465 saft:487 isakmp:500 rtsp:554 nqs:607
  asf-rmcp:623 qmqp:628 ipp:631 ldp:646 exec:512 biff:512 login:513 who:513 shell:514 syslog:514 printer:515
  talk:517 ntalk:518 route:520 gdomap:538 uucp:540 klogin:543 kshell:544 dhcpv6-client:546 dhcpv6-server:547
  afpovertcp:548 nntps:563 submission:587 ldaps:636 tinc:655 silc:706 kerberos-adm:749 domain-s:853 rsync:873
  ftps-data:989 ftps:990 telnets:992 imaps:993 pop3s:995 socks:1080 proofd:1093 rootd:1094 openvpn:1194
  rmiregistry:1099 lotusnote:1352 ms-sql-s:1433 ms-sql-m:1434 ingreslock:1524 datametrics:1645
  sa-msg-port:1646 kermit:1649 groupwise:1677 l2f:1701 radius:1812 radius-acct:1813 cisco-sccp:2000 nfs:2049
  gnunet:2086 rtcm-sc104:2101 gsigatekeeper:2119 gris:2135 cvspserver:2401 venus:2430 venus-se:2431
  codasrv:2432 codasrv-se:2433 mon:2583 dict:2628 f5-globalsite:2792 gsiftp:2811 gpsd:2947 gds-db:3050
  icpv2:3130 isns:3205 iscsi-target:3260 mysql:3306 ms-wbt-server:3389 nut:3493 distcc:3632 daap:3689
  svn:3690 suucp:4031 sysrqd:4094 sieve:4190 epmd:4369 remctl:4373 f5-iquery:4353 ntske:4460 ipsec-nat-t:4500
  iax:4569 mtn:4691 radmin-port:4899 sip:5060 sip-tls:5061 xmpp-client:5222 xmpp-server:5269 cfengine:5308
  mdns:5353 postgresql:5432 freeciv:5556 amqps:5671 amqp:5672 x11:6000 x11-1:6001 x11-2:6002 x11-3:6003
  x11-4:6004 x11-5:6005 x11-6:6006 x11-7:6007 gnutella-svc:6346 gnutella-rtr:6347 redis:6379 sge-qmaster:6444
  sge-execd:6445 mysql-proxy:6446 babel:6696 ircs-u:6697 bbs:7000 afs3-fileserver:7000 afs3-callback:7001
  afs3-prserver:7002 afs3-vlserver:7003 afs3-kaserver:7004 afs3-volser:7005 afs3-bos:7007 afs3-update:7008
  afs3-rmtsys:7009 font-service:7100 http-alt:8080 puppet:8140 bacula-dir:9101 bacula-fd:9102 bacula-sd:9103
  xmms2:9667 nbd:10809 zabbix-agent:10050 zabbix-trapper:10051 amanda:10080 dicom:11112 hkp:11371
  db-lsp:17500 dcap:22125 gsidcap:22128 wnn6:22273 kerberos4:750 kerberos-master:751 passwd-server:752
  krb-prop:754 zephyr-srv:2102 zephyr-clt:2103 zephyr-hm:2104 iprop:2121 supfilesrv:871 supfiledbg:1127
  poppassd:106 moira-db:775 moira-update:777 moira-ureg:779 spamd:783 skkserv:1178 predict:1210 rmtcfg:1236
  xtel:1313 xtelw:1314 zebrasrv:2600 zebra:2601 ripd:2602 ripngd:2603 ospfd:2604 bgpd:2605 ospf6d:2606
  ospfapi:2607 isisd:2608 fax:4557 hylafax:4559 munin:4949 rplay:5555 nrpe:5666 nsca:5667 canna:5680
  syslog-tls:6514 sane-port:6566 ircd:6667 zope-ftp:8021 tproxy:8081 omniorb:8088 clc-build-daemon:8990
  xinetd:9098 git:9418 zope:9673 webmin:10000 kamanda:10081 amandaidx:10082 amidxtape:10083 sgi-cmsd:17001
  sgi-crsd:17002 sgi-gcd:17003 sgi-cad:17004 binkp:24554 asp:27374 csync2:30865 dircproxy:57000 tfido:60177
  fido:60179
`;

/** iptables' ICMP type names (`iptables -p icmp -h`; Firewall.pm `$icmp_type_names`). */
export const ICMP_TYPE_NAMES: ReadonlySet<string> = new Set(`
  any echo-reply destination-unreachable network-unreachable host-unreachable protocol-unreachable
  port-unreachable fragmentation-needed source-route-failed network-unknown host-unknown network-prohibited
  host-prohibited TOS-network-unreachable TOS-host-unreachable communication-prohibited
  host-precedence-violation precedence-cutoff source-quench redirect network-redirect host-redirect
  TOS-network-redirect TOS-host-redirect echo-request router-advertisement router-solicitation time-exceeded
  ttl-zero-during-transit ttl-zero-during-reassembly parameter-problem ip-header-bad required-option-missing
  timestamp-request timestamp-reply address-mask-request address-mask-reply
`.split(/\s+/).filter(Boolean));

/** ip6tables' ICMPv6 type names (`ip6tables -p icmpv6 -h`; Firewall.pm `$icmpv6_type_names`). */
export const ICMPV6_TYPE_NAMES: ReadonlySet<string> = new Set(`
  destination-unreachable no-route communication-prohibited beyond-scope address-unreachable port-unreachable
  failed-policy reject-route packet-too-big time-exceeded ttl-zero-during-transit ttl-zero-during-reassembly
  parameter-problem bad-header unknown-header-type unknown-option echo-request echo-reply router-solicitation
  router-advertisement neighbor-solicitation neighbour-solicitation neighbor-advertisement
  neighbour-advertisement redirect
`.split(/\s+/).filter(Boolean));

/** `name|description|rule;rule…`, each rule `proto [dport [sport]]` with the rule's own action. */
const MACRO_TABLE = `
Amanda|Amanda Backup|udp 10080;tcp 10080
Auth|Auth (identd) traffic|tcp 113
BGP|Border Gateway Protocol traffic|tcp 179
BitTorrent|BitTorrent traffic for BitTorrent 3.1 and earlier|tcp 6881:6889;udp 6881
BitTorrent32|BitTorrent traffic for BitTorrent 3.2 and later|tcp 6881:6999;udp 6881
Ceph|Ceph Storage Cluster traffic (Ceph Monitors, OSD & MDS Daemons)|tcp 6789;tcp 3300;tcp 6800:7300
CVS|Concurrent Versions System pserver traffic|tcp 2401
Citrix|Citrix/ICA traffic (ICA, ICA Browser, CGP)|tcp 1494;udp 1604;tcp 2598
DAAP|Digital Audio Access Protocol traffic (iTunes, Rythmbox daemons)|tcp 3689;udp 3689
DCC|Distributed Checksum Clearinghouse spam filtering mechanism|tcp 6277
DHCPfwd|Forwarded DHCP traffic|udp 67:68 67:68
DNS|Domain Name System traffic (upd and tcp)|udp 53;tcp 53
Distcc|Distributed Compiler service|tcp 3632
FTP|File Transfer Protocol|tcp 21
Finger|Finger protocol (RFC 742)|tcp 79
GNUnet|GNUnet secure peer-to-peer networking traffic|tcp 2086;udp 2086;tcp 1080;udp 1080
GRE|Generic Routing Encapsulation tunneling protocol|47
Git|Git distributed revision control traffic|tcp 9418
HKP|OpenPGP HTTP key server protocol traffic|tcp 11371
HTTP|Hypertext Transfer Protocol (WWW)|tcp 80
HTTPS|Hypertext Transfer Protocol (WWW) over SSL|tcp 443
ICPV2|Internet Cache Protocol V2 (Squid) traffic|udp 3130
ICQ|AOL Instant Messenger traffic|tcp 5190
IMAP|Internet Message Access Protocol|tcp 143
IMAPS|Internet Message Access Protocol over SSL|tcp 993
IPIP|IPIP capsulation traffic|94
IPsec|IPsec traffic|udp 500 500;50
IPsecah|IPsec authentication (AH) traffic|udp 500 500;51
IPsecnat|IPsec traffic and Nat-Traversal|udp 500;udp 4500;50
IRC|Internet Relay Chat traffic|tcp 6667
Jetdirect|HP Jetdirect printing|tcp 9100
L2TP|Layer 2 Tunneling Protocol traffic|udp 1701
LDAP|Lightweight Directory Access Protocol traffic|tcp 389
LDAPS|Secure Lightweight Directory Access Protocol traffic|tcp 636
MSNP|Microsoft Notification Protocol|tcp 1863
MSSQL|Microsoft SQL Server|tcp 1433
Mail|Mail traffic (SMTP, SMTPS, Submission)|tcp 25;tcp 465;tcp 587
MDNS|Multicast DNS|udp 5353
Munin|Munin networked resource monitoring traffic|tcp 4949
MySQL|MySQL server|tcp 3306
NNTP|NNTP traffic (Usenet).|tcp 119
NNTPS|Encrypted NNTP traffic (Usenet)|tcp 563
NTP|Network Time Protocol (ntpd)|udp 123
OSPF|OSPF multicast traffic|89
OpenVPN|OpenVPN traffic|udp 1194
PCA|Symantec PCAnywere (tm)|udp 5632;tcp 5631
PMG|Proxmox Mail Gateway web interface|tcp 8006
POP3|POP3 traffic|tcp 110
POP3S|Encrypted POP3 traffic|tcp 995
PPtP|Point-to-Point Tunneling Protocol|47;tcp 1723
Ping|ICMP echo request|icmp echo-request
PostgreSQL|PostgreSQL server|tcp 5432
Printer|Line Printer protocol printing|tcp 515
RDP|Microsoft Remote Desktop Protocol traffic|tcp 3389
RIP|Routing Information Protocol (bidirectional)|udp 520
RNDC|BIND remote management protocol|tcp 953
Razor|Razor Antispam System|tcp 2703
Rdate|Remote time retrieval (rdate)|tcp 37
Rsync|Rsync server|tcp 873
SANE|SANE network scanning|tcp 6566
SMB|Microsoft SMB traffic|udp 135,445;udp 137:139;udp 1024:65535 137;tcp 135,139,445
SMBswat|Samba Web Administration Tool|tcp 901
SMTP|Simple Mail Transfer Protocol|tcp 25
SMTPS|Encrypted Simple Mail Transfer Protocol|tcp 465
SNMP|Simple Network Management Protocol|udp 161:162;tcp 161
SPAMD|Spam Assassin SPAMD traffic|tcp 783
SSH|Secure shell traffic|tcp 22
SVN|Subversion server (svnserve)|tcp 3690
SixXS|SixXS IPv6 Deployment and Tunnel Broker|tcp 3874;udp 3740;41;udp 5072,8374
SPICEproxy|Proxmox VE SPICE display proxy traffic|tcp 3128
Squid|Squid web proxy traffic|tcp 3128
Submission|Mail message submission traffic|tcp 587
Syslog|Syslog protocol (RFC 5424) traffic|udp 514;tcp 514
TFTP|Trivial File Transfer Protocol traffic|udp 69
Telnet|Telnet traffic|tcp 23
Telnets|Telnet over SSL|tcp 992
Time|RFC 868 Time protocol|tcp 37
Trcrt|Traceroute (for up to 30 hops) traffic|udp 33434:33524;icmp echo-request
VNC|VNC traffic for VNC display's 0 - 99|tcp 5900:5999
VNCL|VNC traffic from Vncservers to Vncviewers in listen mode|tcp 5500
Web|WWW traffic (HTTP and HTTPS)|tcp 80;tcp 443
Webcache|Web Cache/Proxy traffic (port 8080)|tcp 8080
Webmin|Webmin traffic|tcp 10000
Whois|Whois (nicname, RFC 3912) traffic|tcp 43
`;

/** What a macro means for IPv6 where that differs (and the IPv6-only macros). */
const IPV6_MACRO_TABLE = `
Ping||icmpv6 echo-request
NeighborDiscovery|IPv6 neighbor solicitation, neighbor and router advertisement|icmpv6 router-solicitation;icmpv6 router-advertisement;icmpv6 neighbor-solicitation;icmpv6 neighbor-advertisement
DHCPv6|DHCPv6 traffic|udp 546:547 546:547
Trcrt||udp 33434:33524;icmpv6 echo-request
`;

const PROTOCOLS = new Map<string, number>([
  ...PROTOCOL_TABLE.split(/\s+/).filter(Boolean).map((entry): [string, number] => {
    const colon = entry.lastIndexOf(':');
    return [entry.slice(0, colon), Number(entry.slice(colon + 1))];
  }),
  ['icmpv6', 58],
]);
const PROTOCOL_NUMBERS = new Set(PROTOCOLS.values());

/** The protocol number of a name or number `/etc/protocols` lists (pve_fw_verify_protocol_spec's check), else undefined. */
export function protocolNumber(proto: string): number | undefined {
  const byName = PROTOCOLS.get(proto);
  if (byName !== undefined) return byName;
  return /^\d+$/.test(proto) && PROTOCOL_NUMBERS.has(Number(proto)) && String(Number(proto)) === proto ? Number(proto) : undefined;
}

const SERVICES = new Map(
  SERVICE_TABLE.split(/\s+/)
    .filter(Boolean)
    .map((entry): [string, number] => [entry.slice(0, entry.indexOf(':')), Number(entry.slice(entry.indexOf(':') + 1))]),
);

/** The port of a service name `/etc/services` knows, else undefined. */
export function servicePort(name: string): number | undefined {
  return SERVICES.get(name);
}

/** One rule of a macro: the rule's own action, with this protocol and ports. */
interface MacroRule {
  proto: string;
  dport?: string;
  sport?: string;
}

interface FirewallMacro {
  /** The name as Proxmox spells it (`HTTPS`); rules may use any case. */
  name: string;
  /** 0: both IP versions; 6: an IPv6-only macro. */
  ipversion: 0 | 6;
  rules: MacroRule[];
  /** What the macro means for IPv6, where that differs. */
  ipv6Rules?: MacroRule[];
}

function parseMacroTable(table: string): Map<string, MacroRule[]> {
  const out = new Map<string, MacroRule[]>();
  for (const line of table.split('\n').filter(Boolean)) {
    const [name, , rules] = line.split('|') as [string, string, string];
    out.set(
      name,
      rules.split(';').map((rule) => {
        const [proto, dport, sport] = rule.split(' ') as [string, string | undefined, string | undefined];
        return { proto, ...(dport !== undefined ? { dport } : {}), ...(sport !== undefined ? { sport } : {}) };
      }),
    );
  }
  return out;
}

/** By lower-cased name, as init_firewall_macros indexes them (`$pve_fw_preferred_macro_names`). */
const MACROS = new Map<string, FirewallMacro>();
{
  const ipv6 = parseMacroTable(IPV6_MACRO_TABLE);
  for (const [name, rules] of parseMacroTable(MACRO_TABLE)) {
    const ipv6Rules = ipv6.get(name);
    MACROS.set(name.toLowerCase(), { name, ipversion: 0, rules, ...(ipv6Rules ? { ipv6Rules } : {}) });
  }
  for (const [name, rules] of ipv6) if (!MACROS.has(name.toLowerCase())) MACROS.set(name.toLowerCase(), { name, ipversion: 6, rules });
}

/** The macro a rule names (in any case), else undefined. */
export function findMacro(name: string): FirewallMacro | undefined {
  return MACROS.get(name.toLowerCase());
}

/** The rules a macro stands for in a chain of one IP version (Firewall.pm's apply_macro): none for a macro of the other version. */
export function macroRules(macro: FirewallMacro, ipversion: 4 | 6): MacroRule[] {
  if (macro.ipversion !== 0 && macro.ipversion !== ipversion) return [];
  return ipversion === 6 && macro.ipv6Rules ? macro.ipv6Rules : macro.rules;
}
