"""Conversations of the conformance runner (docs/TESTEE.md, "Conversations"; the
runner's --conversations): a script of steps played by a client in testee X and a
server in testee Y (and a proxy in X), for every pair X x Y, the runner carrying the
bytes between them and playing the clock. Every answer of every step must be the
reference pair's (c x c, else the first testee's): the bytes sent, how each request
ended, what was notified, the requests the server saw, the frames a proxy handed over,
the log lines. A step may also say what it expects ("expect": members the answer must
have, lists compared by the members their elements give), which holds the reference
itself to the rules of docs/CLIENT.md.

A script (one JSON object per line):
    {"id": ID, "package": P, "model": "standard"|"final", "client": {"max_pending": N, ...},
     "steps": [[ROLE, OP, {MEMBERS}, EXPECT?], ...]}
ROLE is client, server or proxy; OP a session request of that role. The runner adds
"session" and, to feed and serve without "hex", the bytes the other side sent that were
not delivered yet (a proxy: everything the client sent, copied). Sessions are opened
before the first step (client: the script's "client" members, and "log": true) and
closed after the last."""

OPENERS = {"client": "client", "server": "server", "proxy": "proxy"}


def _matches(got, want):
    """Whether answer `got` has what `want` names: equal scalars, objects compared on
    want's members, lists element by element (the same length)."""
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and _matches(got[k], v) for k, v in want.items())
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(_matches(g, w) for g, w in zip(got, want))
    return got == want


class Conversation:
    """One script played by (client testee, server testee): its answers, step by step."""

    def __init__(self, script, client, server, dumps, died):
        self.script, self.client, self.server = script, client, server
        self.dumps, self.died = dumps, died

    def play(self):
        """The answers (one per step, dumps() text), and the first problem or None."""
        s = self.script
        pid = s["id"]
        sessions = {"client": "%s/c" % pid, "server": "%s/s" % pid, "proxy": "%s/p" % pid}
        testee_of = {"client": self.client, "server": self.server, "proxy": self.client}
        base = {"package": s["package"], "model": s.get("model", "standard")}
        opened, answers, problem = [], [], None
        to_server, to_client, to_proxy = [], [], []
        try:
            for role, op in OPENERS.items():
                members = dict(base, op=op, session=sessions[role], log=role != "proxy")
                if role == "client":
                    members.update(s.get("client", {}))
                if role == "proxy":
                    members["verify"] = s.get("proxy_verify", True)
                got = testee_of[role].request(members)
                if not got.get("ok"):
                    return answers, "opening the %s: %s" % (role, got.get("error"))
                opened.append(role)
            for n, step in enumerate(s["steps"]):
                role, op, members = step[0], step[1], dict(step[2])
                expect = step[3] if len(step) > 3 else None
                members.update(op=op, session=sessions[role])
                if op in ("feed", "serve") and "hex" not in members:
                    pending = {"client": to_client, "server": to_server, "proxy": to_proxy}[role]
                    members["hex"] = "".join(pending)
                    pending.clear()
                got = testee_of[role].request(members)
                sent = got.get("hex") if op in ("request", "reply", "send") else None
                if sent:
                    (to_server if role == "client" else to_client).append(sent)
                    if role == "client":
                        to_proxy.append(sent)
                answers.append(self.dumps(got))
                if expect is not None and not _matches(got, expect) and problem is None:
                    problem = "step %d (%s %s): the answer %s is not what the script expects, %s" % (
                        n, role, op, self.dumps(got)[:300], self.dumps(expect)[:300])
        except self.died as e:
            return answers, "step %d: %s" % (len(answers), e)
        finally:
            for role in opened:
                try:
                    testee_of[role].request({"op": "close", "session": sessions[role]})
                except self.died:
                    pass
        return answers, problem


def run(runner, path, dumps, died, parse):
    """Plays every script of path for every (client, server) pair of the runner's
    testees; the number of scripts. Checks: SCRIPT-ID of each pair, held to the
    reference pair's answers."""
    scripts = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                try:
                    scripts.append(parse(line))
                except ValueError as e:
                    runner.failures.append("FAIL %s:%d: not JSON: %s" % (path, n, e))
    ref = runner.reference
    for script in scripts:
        want, problem = Conversation(script, ref, ref, dumps, died).play()
        rid = script.get("id", "?")
        runner.count(rid, (ref.name, ref.name), problem is None, problem, cell=runner.conversation_cells[
            (ref.name, ref.name)])
        for x in runner.testees:
            for y in runner.testees:
                if x is ref and y is ref:
                    continue
                got, problem = Conversation(script, x, y, dumps, died).play()
                if problem is None:
                    for n, (g, w) in enumerate(zip(got, want)):
                        if g != w:
                            step = script["steps"][n]
                            problem = "step %d (%s %s): %s, the reference %s" % (n, step[0], step[1], g[:400], w[:400])
                            break
                    else:
                        if len(got) != len(want):
                            problem = "%d answers, the reference %d" % (len(got), len(want))
                runner.count(rid, (x.name, y.name), problem is None, problem,
                             cell=runner.conversation_cells[(x.name, y.name)])
    return len(scripts)
