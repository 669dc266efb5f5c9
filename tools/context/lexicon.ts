/**
 * The word lists of the task-term extractor (`terms.ts`): English stop-words, the words every
 * issue uses, the keywords and builtins of the common languages, the file extensions a path of
 * code ends with, and the domain endings that tell a host name from a dotted identifier. Pure
 * data; every list is lower-case unless it says otherwise.
 *
 * @module
 */

/**
 * English stop-words, dropped from the words of a task: function words and the contractions an
 * issue writes ("don't", "it's"; the apostrophe kept, as the scanner reads them).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all also am an and any are aren't as at be because been " +
    "before being below between both but by can can't cannot could couldn't did didn't do does " +
    "doesn't doing don't down during each either else etc even ever every few for from further " +
    "get gets got had hadn't has hasn't have haven't having he her here hers herself him himself " +
    "his how however i i'd i'll i'm i've ie eg if in into is isn't it it's its itself just let " +
    "let's me might more most much must mustn't my myself neither no nor not now of off on once " +
    "one only or other others otherwise our ours ourselves out over own per please quite rather " +
    "really same shan't she should shouldn't since so some such than that that's the their " +
    "theirs them themselves then there there's these they they're they've this those though " +
    "through thus to too under until up upon us very via was wasn't we we're we've were weren't " +
    "what what's when where whether which while who whom whose why will with within without " +
    "won't would wouldn't yet you you'd you'll you're you've your yours yourself yourselves " +
    "thanks thank hi hello dear regards cheers you'll he's she's who's here's where's it'll " +
    "that'll they'd they'll we'll we'd"
  ).split(" "),
);

/**
 * Words common to issues that say little about where the code is. They matter in code ("error"
 * names classes and functions), so the extractor keeps them at a low weight instead of dropping
 * them.
 */
export const ISSUE_WORDS: ReadonlySet<string> = new Set(
  (
    "error errors issue issues bug bugs expected expect expecting actual actually problem " +
    "problems example examples fix fixed fixes fail fails failed failing work works working " +
    "worked broken break breaks wrong correct correctly result results output outputs behavior " +
    "behaviour case cases following follow seems seem like use used uses using version versions " +
    "way thing things something anything nothing need needs needed want wanted think thought " +
    "try tried trying see saw seen look looks looking know make makes made new old code run " +
    "runs running ran reproduce reproduced minimal steps sample mcve description happen happens " +
    "happened instead still already maybe perhaps possible possibly currently current simple " +
    "simply unexpected unexpectedly given give gives well good bad better best able sure note " +
    "first second two three any many lot lots bit little able said say says tested test " +
    "update updated report reported question answer help idea ideas suggestion propose proposed " +
    "feature request requested return returns returned"
  ).split(" "),
);

/**
 * Keywords of Python, JavaScript/TypeScript, Rust, Go, Java, C and shell, and the receivers
 * `self`, `this` and `cls`: a bare one is never an identifier of a task (case-sensitive: `None`,
 * `True`). Keywords that code also uses as names (`map`, `range`, `match`, `union`, `type`) are
 * left out, and any keyword after a dot is an attribute like another (`g.map`, `d.delete`).
 */
export const CODE_KEYWORDS: ReadonlySet<string> = new Set(
  (
    // Python
    "False None True and as assert async await break class continue def del elif else except " +
    "finally for from global if import in is lambda nonlocal not or pass raise return try while " +
    "with yield self cls " +
    // JavaScript / TypeScript
    "const let var function new this typeof instanceof null undefined true false void delete " +
    "export default extends super switch case do of interface type enum implements private " +
    "public protected readonly static abstract declare namespace keyof " +
    // Rust
    "fn mut pub impl struct trait use mod crate where dyn unsafe extern Self " +
    // Go
    "func package go defer chan fallthrough goto " +
    // Java, C
    "final throws throw catch synchronized volatile transient native boolean int long short " +
    "char byte float double unsigned signed sizeof typedef " +
    // shell
    "then fi esac done echo export sudo cd"
  ).split(" "),
);

/**
 * Builtins that name no code of a project (Python's, JavaScript's, common shell commands):
 * kept as words, never as identifiers.
 */
export const BUILTINS: ReadonlySet<string> = new Set(
  (
    "print len range map str int float list dict set tuple bool bytes object type isinstance " +
    "issubclass getattr setattr hasattr open super repr min max sum abs all any zip filter " +
    "sorted reversed enumerate iter next id hash format input round divmod pow vars dir " +
    "console log Object Array String Number Boolean Promise Math JSON Error Date Map Set " +
    "require module exports python python3 pip npm node cargo git ls cat np pd plt args kwargs argv"
  ).split(" "),
);

/**
 * File extensions (lower-case, no dot) that end a path of a project's code, configuration or
 * documentation. Kept to what a task names as a file: `.log`, `.out`, `.in` and `.map` are left
 * out (`np.log`, `x.in`), and so are `.env`, `.lock`, `.el` and `.make` (`process.env`,
 * `threading.lock`, `this.el`). The extractor asks more of a file name with no folder: a base
 * name of two characters or more, not followed by `(` (`r.json()`), and for a one-letter
 * extension `c` or `h` (`math.h`).
 */
export const CODE_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    "py pyi pyx pxd js mjs cjs jsx ts mts cts tsx vue svelte rs go java kt kts scala groovy " +
    "clj cljs c h cc cpp cxx hpp hh hxx ino cs fs vb swift mm rb php pl pm lua r jl ex exs erl " +
    "hrl hs ml mli elm dart zig nim sh bash zsh fish ps1 bat cmd sql proto graphql gql css scss " +
    "sass less html htm xml xsd svg json jsonc json5 yaml yml toml ini cfg conf properties " +
    "gradle cmake mk md rst txt tex ipynb dockerfile tf hcl nix vim asm s f90 " +
    "f sol wasm wat"
  ).split(" "),
);

/** Last labels of a host name: a dotted word in prose that ends so is a host, not code. */
export const DOMAIN_ENDINGS: ReadonlySet<string> = new Set(
  "com org net io dev edu gov co uk de fr jp cn ru info biz me ai app".split(" "),
);

/** HTML element names whose tags, in the prose of an issue, are markup to skip. */
export const HTML_TAGS: ReadonlySet<string> = new Set(
  (
    "a abbr b br blockquote code dd del details div dl dt em h1 h2 h3 h4 h5 h6 hr i img ins kbd " +
    "li ol p pre s samp span strike strong sub summary sup table tbody td tfoot th thead tr tt u " +
    "ul var picture source video"
  ).split(" "),
);

/**
 * Names of products written in CamelCase (lower-case here): in prose they are words, not
 * identifiers (`GitHub`, `NumPy`, `LaTeX`), and with `.js` no file (`Node.js`).
 */
export const PRODUCT_NAMES: ReadonlySet<string> = new Set(
  (
    "github gitlab bitbucket javascript typescript coffeescript numpy scipy sympy pypi pytorch " +
    "tensorflow latex mathml ipython jupyterlab pycharm intellij vscode macos ios iphone ipad " +
    "powershell openssl postgresql mysql sqlite mongodb graphql oauth youtube linkedin " +
    "wordpress devtools webpack webassembly openapi websocket websockets matplotlib pandas " +
    "node vue next nuxt react express three chart d3 ember backbone angular socket moment"
  ).split(" "),
);
