#!/bin/bash
# ioengine=net on localhost, beside fio 3.33's own net engine: a raidbench
# receiver with a fio sender and the reverse, over tcp, udp and a unix
# socket, move the same bytes; a receiver ends when its sender closes; a
# bounded copy of fio's examples/netio.fio (and netio_multicast.fio when this
# host routes multicast) runs whole; a port in use, a missing listener and
# bad options are refused by name. No file is created for a job.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool fio fio
need_tool python3 python3
EX=$SRCDIR/tests/fixtures/fio-examples/examples
W=$RB_TMP/w
mkdir -p "$W"
cd "$W" || exit 1

# a port nothing here is bound to (TCP or UDP, v4 or v6)
free_port() {
	local p
	while :; do
		p=$((20000 + RANDOM % 20000))
		grep -qi ":$(printf %04X "$p") " /proc/net/tcp /proc/net/tcp6 /proc/net/udp \
			/proc/net/udp6 2>/dev/null || break
	done
	echo "$p"
}
# bound PROTO PORT|PATH: the receiver is ready (a listening TCP socket, a bound UDP one, the unix path)
bound() {
	case $1 in
	unix) [ -S "$2" ] ;;
	udp) grep -qi ":$(printf %04X "$2") " /proc/net/udp /proc/net/udp6 2>/dev/null ;;
	tcp) grep -qi ":$(printf %04X "$2") [0-9A-F:]* 0A" /proc/net/tcp /proc/net/tcp6 2>/dev/null ;;
	esac
}
# tool TOOL ARGS...: fio or raidbench, JSON on stdout (a fio receiver whose sender's
# close datagram was lost ignores SIGTERM in its recv: SIGKILL 5 s later)
tool() {
	local t=$1
	shift
	if [ "$t" = fio ]; then timeout -k 5 30 fio --output-format=json "$@"
	else timeout -k 5 30 "$RAIDBENCH" run --no-save --output-format=json "$@"; fi
}
# dir_stat FILE DIR [whole]: "ios bytes" of the first job's direction (read|write),
# or with "whole" the I/Os that were not short
dir_stat() {
	python3 -c 'import json,sys
t=open(sys.argv[1]).read(); d=json.loads(t[t.index("{"):])["jobs"][0][sys.argv[2]]
print(d["total_ios"] - d["short_ios"] if sys.argv[3:] else "%d %d" % (d["total_ios"], d["io_bytes"]))' "$@" 2>/dev/null
}

# cross PROTO RECEIVER SENDER: the receiver asks for 64m, the sender sends 1m
# of 4k blocks (UDP: 128k of 1k datagrams) and closes; both count the same
# blocks, the receiver ending with the sender. The sender is paced so a
# receiver that this busy machine stalls for a moment loses no datagram (a
# full UDP receive buffer drops them) and fio's receiver sees whole blocks.
cross() {
	local p=$1 rt=$2 st=$3 port sock=$W/net.sock what bs=4k size=1m rate=4m want="256 1048576"
	local -a r s
	shift 3	# the rest: options for both ends
	[ "${p#udp}" != "$p" ] && bs=1k size=128k rate=512k want="128 131072"
	port=$(free_port)
	case $p in
	unix) r=(--hostname="$sock"); s=(--hostname="$sock"); rm -f "$sock" ;;
	udp*) r=(--port="$port"); s=(--hostname=localhost --port="$port") ;;
	tcp*) r=(--port="$port" --listen); s=(--hostname=localhost --port="$port") ;;
	esac
	case $p in *v6) s[0]=--hostname=::1 ;; esac
	what="$p: $rt receiving, $st sending${1:+ ($*)}"
	tool "$rt" --name=r --ioengine=net --protocol="$p" "${r[@]}" --rw=read --bs=$bs \
		--size=64m "$@" >"$W/r.json" 2>"$W/r.err" &
	local pid=$! i
	for ((i = 0; i < 100; i++)); do
		bound "${p%v6}" "$([ "$p" = unix ] && echo "$sock" || echo "$port")" && break
		sleep 0.1
	done
	tool "$st" --name=s --ioengine=net --protocol="$p" "${s[@]}" --rw=write --bs=$bs \
		--size=$size --rate=$rate "$@" >"$W/s.json" 2>"$W/s.err"
	local src=$?
	wait "$pid"
	local rrc=$?
	# fio's own unix sender fails its close message (sendto on a connected socket:
	# EISCONN), fio to fio too; what it sent still counts
	if [ "$rrc" != 0 ] || { [ "$src" != 0 ] && ! { [ "$p" = unix ] && [ "$st" = fio ]; }; }; then
		fail "$what: exit $rrc/$src: $(cat "$W/r.err" "$W/s.err" | grep -v 'waiting for' | head -3)"
		return
	fi
	check "$what: the sender sent ${want% *} blocks" [ "$(dir_stat "$W/s.json" write)" = "$want" ]
	if [ "$rt" = raidbench ]; then
		check "$what: the receiver got the same blocks and ended with the sender" \
			[ "$(dir_stat "$W/r.json" read)" = "$want" ]
	else
		# fio counts each piece of a block that arrives in parts as an I/O
		# (short_ios) and keeps only the last piece's bytes: its whole blocks
		# are total_ios - short_ios, its io_bytes can be short of what came
		check "$what: the receiver got the same blocks and ended with the sender" \
			[ "$(dir_stat "$W/r.json" read whole)" = "${want% *}" ]
	fi
	if [ "$p" = unix ] && [ "$rt" = raidbench ]; then
		check "raidbench's unix receiver removed its socket" [ ! -e "$sock" ]
	fi
}
for p in tcp udp unix; do
	cross "$p" raidbench fio
	cross "$p" fio raidbench
done
# the socket tuning options, set on both ends
cross tcp raidbench fio --window_size=131072 --mss=1400 --nodelay=1
# IPv6, where this host has it
if [ -e /proc/net/if_inet6 ] && grep -q "^0*1 " /proc/net/if_inet6; then
	cross tcpv6 raidbench fio
	cross udpv6 fio raidbench
else
	echo "SKIP: tcpv6/udpv6: this host has no IPv6 loopback address"
fi

# pingpong: each block goes back before the next; lock-step, so nothing is lost
port=$(free_port)
tool raidbench --name=r --ioengine=net --protocol=udp --port="$port" --rw=read --bs=1k \
	--size=256k --pingpong=1 >"$W/r.json" 2>"$W/r.err" &
pid=$!
for ((i = 0; i < 100; i++)); do bound udp "$port" && break; sleep 0.1; done
tool fio --name=s --ioengine=net --protocol=udp --hostname=localhost --port="$port" \
	--rw=write --bs=1k --size=256k --pingpong=1 >"$W/s.json" 2>"$W/s.err"
wait "$pid"
check "udp pingpong: raidbench received and returned fio's 256 blocks" \
	[ "$(dir_stat "$W/r.json" read)" = "256 262144" ]

# lost datagrams: a sender that skips sequence numbers 10-14 and 50 of 0-99 in fio's
# UDP trailer (magic, sequence, size, little-endian, in each block's last 24 bytes);
# the receiver counts 94 blocks and 6 drops, as fio 3.33's receiver does
# (paced: 100 datagrams at once overflow a default receive buffer, and those losses at
# the end leave no gap to count)
gap_sender() { # PORT: fio's open message, 100 numbered 1k datagrams less 6, the close message
	python3 -c 'import socket,struct,sys,time
s=socket.socket(socket.AF_INET,socket.SOCK_DGRAM); a=("127.0.0.1",int(sys.argv[1]))
s.sendto(struct.pack(">II",0x6c696e6b,0x98),a)
for q in range(100):
    if 10<=q<15 or q==50: continue
    s.sendto(bytes(1000)+struct.pack("<QQQ",0x657375716e556563,q,1024),a); time.sleep(0.001)
s.sendto(struct.pack("<II",0x6c696e6b,0x89),a)' "$1"
}
for t in fio raidbench; do
	port=$(free_port)
	tool "$t" --name=r --ioengine=net --protocol=udp --port="$port" --rw=read --bs=1k \
		--size=1m >"$W/gap-$t.json" 2>"$W/gap-$t.err" &
	pid=$!
	for ((i = 0; i < 100; i++)); do bound udp "$port" && break; sleep 0.1; done
	gap_sender "$port"
	wait "$pid"
	python3 -c 'import json,sys
t=open(sys.argv[1]).read(); d=json.loads(t[t.index("{"):])["jobs"][0]["read"]
print(d["total_ios"], d["drop_ios"])' "$W/gap-$t.json" >"$W/gap-$t.txt" 2>&1
done
check "udp: 6 lost datagrams counted as drop_ios, as fio's receiver ($(cat "$W/gap-fio.txt"))" \
	[ "$(cat "$W/gap-raidbench.txt")" = "94 6" ]

# fio's netio.fio, bounded (size=8m, a free port), run whole: receiver and sender in one file
port=$(free_port)
sed -e 's/^size=.*/size=8m/' -e "s/^port=.*/port=$port/" "$EX/netio.fio" >"$W/netio.fio"
if tool raidbench "$W/netio.fio" >"$W/n.json" 2>"$W/n.err"; then
	check "netio.fio: the receiver got 2048 blocks of 4k" \
		[ "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"]
print(j[0]["read"]["io_bytes"], j[1]["write"]["io_bytes"], j[0]["read"]["total_ios"])' "$W/n.json")" \
		= "8388608 8388608 2048" ]
else fail "netio.fio: $(cat "$W/n.err")"; fi
check "no file is created for a net job" [ -z "$(find "$W" -name 'receiver*' -o -name 'sender*')" ]

# netio_multicast.fio, bounded: two readers of the group 239.0.0.0, one pingpong writer;
# runtime=8 ends a reader whose sender's close datagram was lost
udp_drops() { awk '/^Udp: [0-9]/ { print $4 + $6 }' /proc/net/snmp; }
port=$(free_port)
sed -e 's/^size=.*/size=64k/' -e "s/^port=.*/port=$port/" -e 's/^\[global\]/&\nruntime=8/' \
	"$EX/netio_multicast.fio" >"$W/mc.fio"
drops0=$(udp_drops)
if tool raidbench "$W/mc.fio" >"$W/mc.json" 2>"$W/mc.err"; then
	got=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"]
print(*[x[d]["total_ios"] for x, d in zip(j, ("read", "read", "write"))])' "$W/mc.json")
	if [ "$got" = "1024 1024 1024" ]; then
		pass "netio_multicast.fio: both readers got the writer's 1024 datagrams"
	elif [ "$(udp_drops)" != "$drops0" ]; then
		echo "SKIP: netio_multicast.fio: this busy host dropped UDP datagrams during the" \
			"run (/proc/net/snmp InErrors, RcvbufErrors); counts $got"
	else
		fail "netio_multicast.fio: counts $got, not 1024 each, and no datagram was dropped"
	fi
elif grep -qi "unreachable\|no route" "$W/mc.err"; then
	echo "SKIP: netio_multicast.fio: this host has no route for 239.0.0.0/8 (the test does" \
		"not change the host's routes): $(head -1 "$W/mc.err")"
else fail "netio_multicast.fio: $(cat "$W/mc.err")"; fi

# a port in use: a listener without SO_REUSEPORT holds it
port=$(free_port)
python3 -c 'import socket,sys,time
s=socket.socket(); s.bind(("0.0.0.0", int(sys.argv[1]))); s.listen(1); time.sleep(10)' "$port" &
holder=$!
for ((i = 0; i < 100; i++)); do bound tcp "$port" && break; sleep 0.1; done
"$RAIDBENCH" run --no-save --name=r --ioengine=net --port="$port" --listen --size=1m \
	>/dev/null 2>"$W/err" && fail "a listener on a port in use ran" ||
	check "a port in use is refused, naming it" grep -q "cannot bind tcp \*:$port: Address already in use" "$W/err"
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
# no listener
port=$(free_port)
"$RAIDBENCH" run --no-save --name=s --ioengine=net --hostname=127.0.0.1 --port="$port" \
	--rw=write --size=1m >/dev/null 2>"$W/err" && fail "a sender without a receiver ran" ||
	check "no listener: connection refused, naming the address" \
		grep -q "cannot connect to tcp 127.0.0.1:$port: Connection refused (no receiver" "$W/err"

# a receiver waiting for a sender that never comes ends when the run is interrupted
port=$(free_port)
"$RAIDBENCH" run --no-save --name=r --ioengine=net --port="$port" --listen --size=1m \
	>/dev/null 2>"$W/err" &
pid=$!
for ((i = 0; i < 100; i++)); do bound tcp "$port" && break; sleep 0.1; done
kill -INT "$pid"
for ((i = 0; i < 30; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
	fail "a waiting receiver outlived its interrupt by 3 s"
	kill -9 "$pid"
else
	check "an interrupted receiver stops waiting and says so" \
		grep -q "stopped while waiting for a connection on tcp \*:$port" "$W/err"
fi
wait "$pid" 2>/dev/null

# bad options: file:line and the option
bad() { # bad WHAT PATTERN LINES...: a job file with those lines is refused with PATTERN
	local what=$1 pat=$2
	shift 2
	printf '[j]\nioengine=net\n' >"$W/bad.fio"
	printf '%s\n' "$@" >>"$W/bad.fio"
	"$RAIDBENCH" run --parse-only "$W/bad.fio" >/dev/null 2>"$W/err" &&
		fail "$what accepted" || check "$what refused: $(head -1 "$W/err")" grep -q "$pat" "$W/err"
}
bad "protocol=sctp" "bad.fio:3: option 'protocol': bad value 'sctp'" protocol=sctp port=1 size=1m
bad "port=70000" "bad.fio:3: option 'port': '70000' is out of range" port=70000 size=1m
bad "listen with udp" "bad.fio:1: job 'j': ioengine=net: option 'listen' is for protocol=tcp" \
	protocol=udp port=9 listen size=1m
bad "random reads" "ioengine=net: rw= cannot be random" port=9 listen rw=randread size=1m
bad "tcp without port" "protocol=tcp needs port=" hostname=localhost size=1m
bad "a sender without hostname" "a sender needs hostname=" port=9 rw=write size=1m
bad "port with unix" "option 'port' does not apply to protocol=unix" protocol=unix \
	hostname=/tmp/x port=9 size=1m
# a unix path that is not a socket is not removed
echo keep >"$W/plain"
"$RAIDBENCH" run --no-save --name=r --ioengine=net --protocol=unix --hostname="$W/plain" \
	--size=1m >/dev/null 2>"$W/err" && fail "a receiver bound over a regular file" ||
	check "a regular file at the socket path is kept" [ "$(cat "$W/plain")" = keep ]
grep -q "exists and is not a socket" "$W/err" && pass "and the refusal says why" ||
	fail "no reason for the refused socket path: $(cat "$W/err")"
(cd "$EX" && "$RAIDBENCH" run --parse-only netio.fio) 2>"$W/err" >/dev/null &&
	check "netio.fio parses; --parse-only says who listens" \
		grep -q "job 'receiver': receives on tcp port 8888" "$W/err" ||
	fail "netio.fio refused: $(cat "$W/err")"
cd /
rb_done
