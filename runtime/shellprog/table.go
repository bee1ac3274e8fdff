package shellprog

import "sync"

// flag is an option without a value; val one with a value.
func flag(names ...string) Option { return Option{Names: names} }
func val(names ...string) Option  { return Option{Names: names, Value: true} }

func (o Option) does(e Effect) Option { o.Effect |= e; return o }
func (o Option) only(prefixes ...string) Option {
	o.Only = prefixes
	return o
}
func (o Option) except(prefixes ...string) Option {
	o.Except = prefixes
	return o
}
func (o Option) attached() Option { o.Value, o.Attached = false, true; return o }

// helpAndVersion are every GNU program's --help and --version.
var helpAndVersion = []Option{flag("--help"), flag("--version")}

func opts(list ...Option) []Option { return append(list, helpAndVersion...) }

// gitConfigSafe are the git -c keys (lower case, as prefixes) that run
// nothing and write nothing; any other -c key (alias.*, core.pager,
// core.sshCommand, core.fsmonitor, diff.*.textconv, filter.*, …) may.
var gitConfigSafe = []string{
	"color.", "core.quotepath=", "advice.", "user.name=", "user.email=",
	"log.showsignature=", "diff.renames=", "init.defaultbranch=", "safe.directory=",
	"column.ui=", "core.abbrev=", "log.decorate=", "log.date=",
}

// gitRemote are the options of git's network commands that name a
// program to run on the other side or here.
var gitRemote = []Option{
	val("--upload-pack").does(Runs), val("--receive-pack").does(Runs), val("--exec").does(Runs),
	val("-u").does(Runs),
}

// gitDiffLike are the options of log, show, diff and their kin that
// write a file or run a configured program.
var gitDiffLike = []Option{
	val("--output").does(WritesPath), flag("--ext-diff").does(Runs), flag("--textconv").does(Runs),
}

// table is the programs table, built on its first use (a map literal of
// this size costs a tenth of a millisecond of every start, -p included,
// when it is a package variable).
var table = sync.OnceValue(buildTable)

// buildTable builds the programs table: the entries, their aliases and
// each program's options by name. Keep entries sorted by name.
func buildTable() map[string]*Program {
	table := map[string]*Program{
		"awk": {
			Options: []Option{val("-f", "--file").does(ReadsPath), val("-v", "--assign"), val("-F", "--field-separator"),
				val("-i", "--include").does(ReadsPath), val("-l", "--load").does(Runs), val("-E", "--exec").does(ReadsPath)},
			Note: "the program text can write files (print > f), pipe to commands (print | \"cmd\") and call system(): runtime/permission reads it",
		},
		"curl": {
			Self: Network,
			Options: []Option{
				val("-o", "--output").does(WritesPath), val("--output-dir").does(Writes), flag("-O", "--remote-name").does(Writes),
				flag("--remote-name-all").does(Writes), flag("-J", "--remote-header-name").does(Writes),
				val("-c", "--cookie-jar").does(WritesPath), val("-D", "--dump-header").does(WritesPath),
				val("--trace").does(WritesPath), val("--trace-ascii").does(WritesPath), val("--stderr").does(WritesPath),
				val("--libcurl").does(WritesPath), val("--etag-save").does(WritesPath), val("--hsts").does(WritesPath | ReadsPath),
				val("--alt-svc").does(WritesPath | ReadsPath), val("-K", "--config").does(ReadsPath | Writes),
				val("-T", "--upload-file").does(ReadsPath), val("-b", "--cookie"), val("-d", "--data"), val("-F", "--form"),
				val("-H", "--header"), val("-X", "--request"), val("-u", "--user"), val("-A", "--user-agent"),
				val("-e", "--referer"), val("-x", "--proxy"), val("-m", "--max-time"), val("-w", "--write-out"), val("--url"),
			},
		},
		"date": {
			Options: opts(val("-d", "--date"), val("-r", "--reference").does(ReadsPath), val("-f", "--file").does(ReadsPath),
				val("-s", "--set").does(Writes), flag("-u", "--utc", "--universal"), flag("-R", "--rfc-email"),
				val("-I", "--iso-8601").attached(), val("--rfc-3339"), flag("--debug")),
		},
		"file": {
			Options: []Option{flag("-C", "--compile").does(Writes), val("-m", "--magic-file").does(ReadsPath),
				val("-f", "--files-from").does(ReadsPath), val("-F", "--separator"), val("-P", "--parameter"), val("-e", "--exclude")},
		},
		"find": {
			LongSingleDash: true,
			Options: []Option{
				flag("-exec").does(RunsCommand), flag("-execdir").does(RunsCommand), flag("-ok").does(RunsCommand), flag("-okdir").does(RunsCommand),
				flag("-delete").does(Writes), val("-fprint").does(WritesPath), val("-fprint0").does(WritesPath),
				val("-fprintf").does(WritesPath), val("-fls").does(WritesPath),
			},
		},
		"git": {
			Closed: true, StopAtOperand: true,
			Options: []Option{
				val("-C").does(ReadsPath), val("-c").does(Runs).except(gitConfigSafe...), val("--config-env").does(Runs),
				// Another repository brings its own configuration, whose
				// core.fsmonitor, core.pager or aliases name programs.
				val("--exec-path").does(Runs), val("--git-dir").does(ReadsPath | Runs), val("--work-tree").does(ReadsPath | Runs),
				val("--namespace"), val("--super-prefix"),
				// -p pipes the output to the pager the repository's config
				// names, even when it is not a terminal.
				flag("-p", "--paginate").does(Runs), flag("-P", "--no-pager"), flag("--bare"),
				flag("--no-replace-objects"), flag("--literal-pathspecs"), flag("--glob-pathspecs"),
				flag("--noglob-pathspecs"), flag("--icase-pathspecs"), flag("--no-optional-locks"), flag("--version"),
				flag("--help"), flag("-v"), flag("-h"), val("--list-cmds").attached(), flag("--no-lazy-fetch"),
				flag("--no-advice"), val("--attr-source"),
			},
		},
		"git archive":      {Options: []Option{val("-o", "--output").does(WritesPath), val("--exec").does(Runs), val("--remote").does(Network)}},
		"git clone":        {Options: append([]Option{val("--template").does(Runs), val("-c", "--config").does(Runs)}, gitRemote...)},
		"git diff":         {Options: gitDiffLike},
		"git fetch":        {Options: gitRemote},
		"git format-patch": {Options: append([]Option{val("-o", "--output-directory").does(Writes)}, gitDiffLike...)},
		"git grep":         {Options: []Option{val("-O", "--open-files-in-pager").attached().does(Runs), flag("--ext-grep").does(Runs)}},
		"git log":          {Options: gitDiffLike},
		"git ls-remote":    {Options: gitRemote},
		"git pull":         {Options: gitRemote},
		"git push":         {Options: gitRemote},
		"git show":         {Options: gitDiffLike},
		"less": {
			PlusRuns: true,
			Options: []Option{val("-o", "--log-file").does(WritesPath), val("-O", "--LOG-FILE").does(WritesPath),
				val("-k", "--lesskey-file").does(ReadsPath), val("--lesskey-src").does(ReadsPath), val("-t", "--tag"),
				val("-T", "--tag-file").does(ReadsPath), val("-p", "--pattern"), val("-x", "--tabs"), val("-b", "--buffers"),
				val("-h", "--max-back-scroll"), val("-y", "--max-forw-scroll"), val("-z", "--window"), val("-j", "--jump-target"),
				val("-P", "--prompt")},
		},
		"make": {
			Self: Runs,
			Options: []Option{val("--eval").does(Runs), val("-f", "--file", "--makefile").does(ReadsPath | Runs),
				val("-C", "--directory"), val("-o", "--old-file", "--assume-old"), val("-W", "--what-if", "--new-file", "--assume-new"),
				val("-I", "--include-dir").does(ReadsPath), val("-j", "--jobs"), val("-l", "--load-average")},
		},
		"npm":  {Options: []Option{val("--script-shell").does(Runs), val("--userconfig").does(ReadsPath | Runs), val("--prefix")}},
		"pnpm": {Options: []Option{val("--script-shell").does(Runs), val("-C", "--dir")}},
		"printf": {
			// printf -v evaluates an array subscript, which can run a command
			// substitution.
			Options: []Option{val("-v").does(Runs)},
		},
		"rg": {
			Options: []Option{val("--pre").does(Runs), val("--hostname-bin").does(Runs), val("--pre-glob"),
				val("-f", "--file").does(ReadsPath), val("--ignore-file").does(ReadsPath), val("-e", "--regexp"),
				val("-g", "--glob"), val("--iglob"), val("-t", "--type"), val("-T", "--type-not"), val("-m", "--max-count"),
				val("-A", "--after-context"), val("-B", "--before-context"), val("-C", "--context"), val("-j", "--threads"),
				val("-M", "--max-columns"), val("--type-add"), val("--max-depth", "-d"), val("-E", "--encoding"),
				val("-r", "--replace"), val("--sort"), val("--sortr"), val("--color"), val("--colors"), val("--engine"),
				val("--path-separator"), val("--max-filesize"), val("--dfa-size-limit"), val("--regex-size-limit")},
		},
		"rsync": {
			Self: Network,
			Options: []Option{val("-e", "--rsh").does(Runs), val("--rsync-path").does(Runs), val("--log-file").does(WritesPath),
				val("--write-batch").does(WritesPath), val("--only-write-batch").does(WritesPath), val("--read-batch").does(ReadsPath),
				val("--backup-dir").does(Writes), val("-T", "--temp-dir").does(Writes), val("-f", "--filter"), val("--exclude"),
				val("--include"), val("--exclude-from").does(ReadsPath), val("--include-from").does(ReadsPath),
				val("--files-from").does(ReadsPath), val("-B", "--block-size"), val("--chmod"), val("--password-file").does(ReadsPath)},
		},
		"sed": {
			Closed: true,
			Options: opts(flag("-n", "--quiet", "--silent"), flag("--debug"), val("-e", "--expression"), val("-f", "--file").does(ReadsPath),
				flag("--follow-symlinks"), val("-i", "--in-place").attached().does(Writes), val("-l", "--line-length"), flag("--posix"),
				flag("-E", "-r", "--regexp-extended"), flag("-s", "--separate"), flag("--sandbox"), flag("-u", "--unbuffered"),
				flag("-z", "--null-data"), flag("-b", "--binary")),
			Note: "the script's w and W commands write files and its e command runs one: runtime/permission reads the script",
		},
		"shuf": {
			Closed:   true,
			Operands: ReadsPath,
			Options: opts(flag("-e", "--echo"), val("-i", "--input-range"), val("-n", "--head-count"),
				val("-o", "--output").does(WritesPath), val("--random-source").does(ReadsPath), flag("-r", "--repeat"),
				flag("-z", "--zero-terminated")),
		},
		"sort": {
			Closed:   true,
			Operands: ReadsPath,
			Options: opts(flag("-b", "--ignore-leading-blanks"), flag("-d", "--dictionary-order"), flag("-f", "--ignore-case"),
				flag("-g", "--general-numeric-sort"), flag("-i", "--ignore-nonprinting"), flag("-M", "--month-sort"),
				flag("-h", "--human-numeric-sort"), flag("-n", "--numeric-sort"), flag("-R", "--random-sort"),
				val("--random-source").does(ReadsPath), flag("-r", "--reverse"), val("--sort"), flag("-V", "--version-sort"),
				val("--batch-size"), flag("-c", "-C", "--check"), val("--compress-program").does(Runs), flag("--debug"),
				val("--files0-from").does(ReadsPath), val("-k", "--key"), flag("-m", "--merge"),
				val("-o", "--output").does(WritesPath), flag("-s", "--stable"), val("-S", "--buffer-size"),
				val("-t", "--field-separator"), val("-T", "--temporary-directory"), val("--parallel"), flag("-u", "--unique"),
				flag("-z", "--zero-terminated")),
		},
		"split": {
			Closed:         true,
			OperandEffects: []Effect{ReadsPath, WritesPath},
			Note:           "the second operand is the prefix of the files it writes",
			Options: opts(val("-a", "--suffix-length"), val("--additional-suffix"), val("-b", "--bytes"), val("-C", "--line-bytes"),
				flag("-d"), val("--numeric-suffixes").attached(), flag("-x"), val("--hex-suffixes").attached(), flag("-e", "--elide-empty-files"),
				val("--filter").does(Runs), val("-l", "--lines"), val("-n", "--number"), val("-t", "--separator"),
				flag("-u", "--unbuffered"), flag("--verbose")),
		},
		"csplit": {
			Closed: true,
			Self:   Writes,
			Note:   "it writes xx00, xx01… (or PREFIX00…) into the current directory",
			Options: opts(val("-b", "--suffix-format"), val("-f", "--prefix").does(WritesPath), flag("-k", "--keep-files"),
				flag("--suppress-matched"), val("-n", "--digits"), flag("-s", "-q", "--quiet", "--silent"), flag("-z", "--elide-empty-files")),
		},
		"ssh": {
			// OpenSSH reads options after the host too (ssh host -o …), so
			// every word is read as a possible option: conservative for a
			// remote command's own options.
			Self: Network,
			Options: []Option{
				val("-o").does(Runs).only("proxycommand", "localcommand", "permitlocalcommand", "knownhostscommand", "match", "include", "pkcs11provider", "securitykeyprovider"),
				val("-F").does(ReadsPath | Runs), val("-E").does(WritesPath), val("-S").does(WritesPath), val("-i").does(ReadsPath),
				val("-J"), val("-p"), val("-l"), val("-L"), val("-R"), val("-D"), val("-W"), val("-b"), val("-c"), val("-e"),
				val("-m"), val("-O"), val("-Q"), val("-w"), val("-B"), val("-I").does(Runs),
			},
		},
		"tar": {
			Options: []Option{val("-f", "--file"), val("-C", "--directory"), val("-T", "--files-from").does(ReadsPath),
				val("-X", "--exclude-from").does(ReadsPath), val("-I", "--use-compress-program").does(Runs),
				val("--to-command").does(Runs), val("--checkpoint-action").does(Runs).only("exec"), val("--info-script", "-F", "--new-volume-script").does(Runs),
				val("--rsh-command").does(Runs), val("--rmt-command").does(Runs), val("--index-file").does(WritesPath),
				val("-g", "--listed-incremental").does(WritesPath), val("-b", "--blocking-factor"), val("-H", "--format"),
				val("-K", "--starting-file"), val("-N", "--newer", "--after-date"), val("-V", "--label"), val("-L", "--tape-length")},
		},
		"test": {Options: []Option{flag("-v").does(Runs), flag("-R").does(Runs)}},
		"time": {Options: []Option{val("-o", "--output").does(WritesPath), val("-f", "--format")}},
		"tree": {
			Options: []Option{val("-o").does(WritesPath), val("-L"), val("-P"), val("-I"), val("-H"), val("-T"),
				val("--filelimit"), val("--charset"), val("--timefmt"), val("--sort"), val("--fromfile").does(ReadsPath)},
		},
		"uniq": {
			Closed:         true,
			OperandEffects: []Effect{ReadsPath, WritesPath},
			Options: opts(flag("-c", "--count"), flag("-d", "--repeated"), flag("-D"), val("--all-repeated").attached(),
				val("-f", "--skip-fields"), val("--group").attached(), flag("-i", "--ignore-case"), val("-s", "--skip-chars"),
				flag("-u", "--unique"), flag("-z", "--zero-terminated"), val("-w", "--check-chars")),
		},
		"vim": {
			PlusRuns: true,
			Options: []Option{val("-c").does(Runs), val("--cmd").does(Runs), val("-S").does(ReadsPath | Runs),
				val("-u").does(Runs), val("-U").does(Runs), val("-w").does(WritesPath), val("-W").does(WritesPath),
				val("-s").does(ReadsPath | Runs), val("-i").does(WritesPath), val("-T"), val("-t"), val("-q").does(ReadsPath),
				val("-r"), flag("-e"), flag("-E"), flag("-Z"), flag("-R"), flag("-m"), flag("-M"), flag("-n"), flag("-b")},
		},
		"wget": {
			Self: Network,
			Options: []Option{val("-O", "--output-document").does(WritesPath), val("-o", "--output-file").does(WritesPath),
				val("-a", "--append-output").does(WritesPath), val("-P", "--directory-prefix").does(Writes),
				val("-e", "--execute").does(Runs | Writes), val("-i", "--input-file").does(ReadsPath), val("--post-file").does(ReadsPath),
				val("--load-cookies").does(ReadsPath), val("--save-cookies").does(WritesPath), val("--config").does(ReadsPath | Writes),
				val("--use-askpass").does(Runs), val("-U", "--user-agent"), val("--header"), val("-t", "--tries"), val("-T", "--timeout")},
		},
		"xargs": {
			StopAtOperand: true,
			Note:          "its first operand is the program it runs, with arguments from its input: runtime/permission unwraps it (shellsyntax.WrappedCommand) and judges that program",
			Options: []Option{val("-a", "--arg-file").does(ReadsPath), val("-I"), val("-i", "--replace").attached(), val("-d", "--delimiter"),
				val("-E"), val("-e", "--eof").attached(), val("-L", "--max-lines"), val("-l").attached(), val("-n", "--max-args"),
				val("-P", "--max-procs"), val("-s", "--max-chars"), val("--process-slot-var")},
		},
		"xxd": {
			Closed: true, LongSingleDash: true,
			OperandEffects: []Effect{ReadsPath, WritesPath},
			Options: []Option{flag("-a", "-autoskip"), flag("-b", "-bits"), flag("-C", "-capitalize"), val("-c", "-cols"),
				flag("-E", "-EBCDIC"), flag("-e"), val("-g", "-groupsize"), flag("-h", "-help"), flag("-i", "-include"),
				val("-l", "-len"), val("-n", "-name"), val("-o", "-offset"), flag("-p", "-ps", "-postscript", "-plain"),
				flag("-r", "-revert"), val("-R"), flag("-d"), val("-s", "-seek"), flag("-u"), flag("-v", "-version")},
		},
		"yarn": {Options: []Option{val("--script-shell").does(Runs), val("--cwd")}},
		"zip": {
			OperandEffects: []Effect{WritesPath},
			Operands:       ReadsPath,
			Options: []Option{val("-TT", "--unzip-command").does(Runs), val("-O", "--output-file").does(WritesPath),
				val("-b", "--temp-path").does(Writes), val("-n", "--suffixes"), val("-t", "--from-date"), val("-tt", "--before-date"),
				val("-i", "--include"), val("-x", "--exclude"), val("-Z", "--compression-method"), val("-P", "--password")},
		},
	}
	for _, p := range table {
		p.byName = map[string]*Option{}
		for i := range p.Options {
			for _, n := range p.Options[i].Names {
				p.byName[n] = &p.Options[i]
			}
		}
	}
	// Aliases share their program's entry.
	for alias, name := range map[string]string{
		"gawk": "awk", "mawk": "awk", "nawk": "awk", "busybox-awk": "awk",
		"vi": "vim", "nvim": "vim", "view": "vim", "gvim": "vim", "vimdiff": "vim",
		"[": "test", "gsed": "sed", "gtar": "tar", "bsdtar": "tar", "gmake": "make",
	} {
		table[alias] = table[name]
	}
	return table
}
