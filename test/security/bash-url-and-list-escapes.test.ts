import { describeEscapeAttacks, type Effect } from "./escape-attacks.js";

/**
 * Issue 25, item 2: the shell's outside-the-workspace check was passed, with no prompt under OpenCode's
 * default rules, by words that name a file as a URL (`file:///...` in any case, `file://localhost/...`, git's
 * local remotes) and by options that take their paths from somewhere the check did not read: a curl config
 * (`-K`), a tar or zip list (`-T`, `--files-from`, `-@`), tar's `-P` and `--transform`, and SQL given to
 * sqlite3. Each attack must ask `external_directory` first, and the sentinel beside the workspace must be as
 * it was. `OUT` is the sentinel's folder relative to the workspace, `ABS` the same folder absolute.
 *
 * On node each attack also runs with everything allowed, to show it is real: a read prints the sentinel, a
 * write adds a file beside it.
 */

const attacks: [command: string, effect: Effect][] = [
  ["curl -s file://ABS/sentinel.txt", "reads"],
  ["curl -s FILE://ABS/sentinel.txt", "reads"],
  ["curl -s File://localhostABS/sentinel.txt", "reads"],
  ["curl -s --url file://ABS/sentinel.txt", "reads"],
  ["curl -s file://ABS/%73entinel.txt", "reads"],
  ["printf 'url = \"file://ABS/sentinel.txt\"\\n' > cfg && curl -s -K cfg", "reads"],
  ["printf 'url = \"file://ABS/sentinel.txt\"\\n' > cfg && curl -sK cfg", "reads"],
  ["printf 'url = \"file://ABS/sentinel.txt\"\\n' > cfg && curl -s --config cfg", "reads"],
  ["printf 'ABS/sentinel.txt\\n' > list && tar -cf x.tar -T list 2>/dev/null && tar -xOf x.tar", "reads"],
  ["printf 'OUT/sentinel.txt\\n' > list && tar -cf x.tar --files-from=list 2>/dev/null && tar -xOf x.tar", "reads"],
  ["printf 'OUT/sentinel.txt\\n' > list && tar -cf x.tar --files-from list 2>/dev/null && tar -xOf x.tar", "reads"],
  ["printf 'ABS/sentinel.txt\\n' > list && zip -q x.zip -@ < list && unzip -p x.zip", "reads"],
  ["sqlite3 :memory: \"select readfile('ABS/sentinel.txt')\"", "reads"],
  ["sqlite3 -cmd \"select readfile('ABS/sentinel.txt')\" :memory: .quit", "reads"],
  ["printf \"select readfile('ABS/sentinel.txt');\" > q.sql && sqlite3 :memory: < q.sql", "reads"],
  ["tar --transform 's,^,ABS/,' -cPf a.tar a.txt && tar -xPf a.tar", "writes"],
  ["tar --xform='s,^,ABS/,' -cPf a.tar a.txt && tar xPf a.tar", "writes"],
  ["sqlite3 :memory: \"select writefile('ABS/new', 'x')\"", "writes"],
];

/** Attacks whose effect needs more than the sentinel to show (a repository outside, a server): asked only. */
const askedOnly = [
  "git clone -q file://ABS/repo clone",
  "git clone -q FILE://localhostABS/repo clone",
  "git clone -q 'ext::sh -c cat% ABS/sentinel.txt' clone",
  "curl -s -d @OUT/sentinel.txt http://127.0.0.1:9/",
  "curl -s -F 'f=@ABS/sentinel.txt' http://127.0.0.1:9/",
  "curl -s -F 'f=<ABS/sentinel.txt' http://127.0.0.1:9/",
  "printf 'ABS/sentinel.txt\\n' | cpio -o > a.cpio",
  "printf 'OUT/sentinel.txt\\n' > list && rsync --files-from=list . copy/",
  "tar -cf a.tar -I 'sh -c \"cat ABS/sentinel.txt\"' a.txt",
];

describeEscapeAttacks("bash: no way out through URLs, lists, configs or SQL", {
  attacks,
  askedOnly,
  controls: [
    "curl --version > /dev/null",
    "tar -cf x.tar a.txt && tar -tf x.tar",
    "tar cf x.tar a.txt",
    "zip -q x.zip a.txt",
    "sqlite3 --version > /dev/null",
    "echo file:///etc/passwd",
  ],
});
