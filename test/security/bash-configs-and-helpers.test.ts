import { describeEscapeAttacks, type Effect } from "./escape-attacks.js";

/**
 * Issue 25, the shell's way out, leftovers: programs that follow a config or run a helper the line
 * chooses, which the path check does not read. curl's default `.curlrc` once the line points $HOME,
 * $CURL_HOME or $XDG_CONFIG_HOME at the workspace (unless `-q` comes first); wget's URL lists, inline
 * wgetrc commands and configs; git's remote programs (`clone -u`, `--upload-pack`), `-c` keys that run
 * commands (core.sshCommand, core.fsmonitor, aliases, protocol.ext.allow) and the variables naming a
 * program (`GIT_SSH_COMMAND`, `GIT_CONFIG_*`). Each asks `external_directory` first under the default rules
 * and leaves the sentinel beside the workspace as it was. `ABS` is the sentinel's folder, `OUT` the same
 * relative to the workspace.
 *
 * On node each attack also runs with everything allowed, with the real curl and git, to show it is real:
 * a read prints the sentinel, a write adds a file beside it.
 */

const CURLRC = "printf 'url = \"file://ABS/sentinel.txt\"\\n' > .curlrc && ";
const REPO = "git init -q src && git -C src -c user.name=a -c user.email=a@b commit -q --allow-empty -m x && ";

const attacks: [command: string, effect: Effect][] = [
  [`${CURLRC}HOME=. curl -s`, "reads"],
  [`${CURLRC}CURL_HOME=. curl -s`, "reads"],
  [`${CURLRC}XDG_CONFIG_HOME=. curl -s`, "reads"],
  [`${CURLRC}export HOME=$PWD; curl -s`, "reads"],
  [`${CURLRC}env HOME=. curl -s`, "reads"],
  [`${REPO}git clone -q -u 'touch ABS/new; git-upload-pack' src dst`, "writes"],
  [`${REPO}git clone -q --upload-pack='touch ABS/new; git-upload-pack' src dst`, "writes"],
  [`${REPO}git -C src fetch -q --upload-pack='touch ABS/new; git-upload-pack' ../src`, "writes"],
  ["git -c core.sshCommand='touch ABS/new' clone -q ssh://x/y dst", "writes"],
  ["GIT_SSH_COMMAND='touch ABS/new' git clone -q ssh://x/y dst", "writes"],
  ["export GIT_SSH_COMMAND='touch ABS/new'; git ls-remote ssh://x/y", "writes"],
  [`${REPO}git -C src -c core.fsmonitor='touch ABS/new' status`, "writes"],
  ["git -c alias.x='!touch ABS/new' x", "writes"],
  ["GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!touch ABS/new' git x", "writes"],
  ["git -c protocol.ext.allow=always clone -q 'ext::sh -c touch% ABS/new' dst", "writes"],
];

/** Attacks whose effect needs a server: asked only. */
const askedOnly = [
  "printf 'http://127.0.0.1:9/\\n' > list && wget -q -i list",
  "printf 'http://127.0.0.1:9/\\n' > list && wget -q --input-file=list",
  "printf 'http://127.0.0.1:9/\\n' > list && wget -qi list",
  "wget -q -e output_document=ABS/new http://127.0.0.1:9/",
  "wget -q --execute=output_document=OUT/new http://127.0.0.1:9/",
  "printf 'output_document = ABS/new\\n' > rc && wget -q --config=rc http://127.0.0.1:9/",
  "printf 'output_document = ABS/new\\n' > rc && WGETRC=rc wget -q http://127.0.0.1:9/",
  "git -c credential.helper='!cat ABS/sentinel.txt' fetch",
  "git --config-env=core.pager=PAGER log",
  "git -c $KEY=x status",
  "git push --receive-pack='cat ABS/sentinel.txt' origin",
];

describeEscapeAttacks("bash: no way out through configs and helper programs", {
  attacks,
  askedOnly,
  controls: [
    "curl -q --version > /dev/null",
    "curl --version > /dev/null",
    "echo $HOME > /dev/null",
    "git -c user.name=a -c user.email=a@b init -q r",
    "git -c color.ui=never --version",
    "git -C . --version",
    "wget --version > /dev/null",
  ],
});
