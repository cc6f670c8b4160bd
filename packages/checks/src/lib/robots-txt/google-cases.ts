/**
 * Every EXPECT_TRUE / EXPECT_FALSE(IsUserAgentAllowed(robotstxt, useragent, url)) of
 * google/robotstxt's robots_test.cc (Copyright 2019 Google LLC, Apache License 2.0), in file
 * order, with the name of the TEST it comes from. Only the cases are carried over: the
 * robots.txt bodies, agents, URLs and expected answers, verbatim.
 */
export type GoogleCase = { test: string; robots: string; agent: string; url: string; allowed: boolean };

export const GOOGLE_CASES: GoogleCase[] = [];

const section = (
  test: string,
  body: (expect: (robots: string, agent: string, url: string, allowed: boolean) => void) => void,
) => body((robots, agent, url, allowed) => GOOGLE_CASES.push({ test, robots, agent, url, allowed }));

section("GoogleOnly_SystemTest", (expect) => {
  const robotstxt = "user-agent: FooBot\ndisallow: /\n";
  expect("", "FooBot", "", true);
  expect(robotstxt, "", "", true);
  expect(robotstxt, "FooBot", "", false);
  expect("", "", "", true);
});

section("ID_LineSyntax_Line", (expect) => {
  const correct = "user-agent: FooBot\ndisallow: /\n";
  const incorrect = "foo: FooBot\nbar: /\n";
  const incorrectAccepted = "user-agent FooBot\ndisallow /\n";
  const url = "http://foo.bar/x/y";
  expect(correct, "FooBot", url, false);
  expect(incorrect, "FooBot", url, true);
  expect(incorrectAccepted, "FooBot", url, false);
});

section("ID_LineSyntax_Groups", (expect) => {
  const robotstxt =
    "allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\ndisallow: /\nallow: /y/\n\n\nallow: /w/\nuser-agent: BazBot\n\nuser-agent: FooBot\nallow: /z/\ndisallow: /\n";
  const w = "http://foo.bar/w/a";
  const x = "http://foo.bar/x/b";
  const y = "http://foo.bar/y/c";
  const z = "http://foo.bar/z/d";
  const foo = "http://foo.bar/foo/bar/";
  expect(robotstxt, "FooBot", x, true);
  expect(robotstxt, "FooBot", z, true);
  expect(robotstxt, "FooBot", y, false);
  expect(robotstxt, "BarBot", y, true);
  expect(robotstxt, "BarBot", w, true);
  expect(robotstxt, "BarBot", z, false);
  expect(robotstxt, "BazBot", z, true);
  expect(robotstxt, "FooBot", foo, false);
  expect(robotstxt, "BarBot", foo, false);
  expect(robotstxt, "BazBot", foo, false);
});

section("ID_LineSyntax_Groups_OtherRules", (expect) => {
  const sitemap = "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n";
  expect(sitemap, "FooBot", "http://foo.bar/", false);
  expect(sitemap, "BarBot", "http://foo.bar/", false);
  const unknown = "User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n";
  expect(unknown, "FooBot", "http://foo.bar/", false);
  expect(unknown, "BarBot", "http://foo.bar/", false);
});

section("ID_REPLineNamesCaseInsensitive", (expect) => {
  const upper = "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n";
  const lower = "user-agent: FooBot\nallow: /x/\ndisallow: /\n";
  const camel = "uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n";
  const allowed = "http://foo.bar/x/y";
  const disallowed = "http://foo.bar/a/b";
  expect(upper, "FooBot", allowed, true);
  expect(lower, "FooBot", allowed, true);
  expect(camel, "FooBot", allowed, true);
  expect(upper, "FooBot", disallowed, false);
  expect(lower, "FooBot", disallowed, false);
  expect(camel, "FooBot", disallowed, false);
});

section("ID_UserAgentValueCaseInsensitive", (expect) => {
  const upper = "User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n";
  const lower = "User-Agent: foo bar\nAllow: /x/\nDisallow: /\n";
  const camel = "User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n";
  const allowed = "http://foo.bar/x/y";
  const disallowed = "http://foo.bar/a/b";
  for (const agent of ["Foo", "foo"]) {
    expect(upper, agent, allowed, true);
    expect(lower, agent, allowed, true);
    expect(camel, agent, allowed, true);
    expect(upper, agent, disallowed, false);
    expect(lower, agent, disallowed, false);
    expect(camel, agent, disallowed, false);
  }
});

section("GoogleOnly_AcceptUserAgentUpToFirstSpace", (expect) => {
  const robotstxt = "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n";
  const url = "http://foo.bar/x/y";
  expect(robotstxt, "Foo", url, true);
  expect(robotstxt, "Foo Bar", url, false);
});

section("ID_GlobalGroups_Secondary", (expect) => {
  const global = "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n";
  const onlySpecific =
    "user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n";
  const url = "http://foo.bar/x/y";
  expect("", "FooBot", url, true);
  expect(global, "FooBot", url, false);
  expect(global, "BarBot", url, true);
  expect(onlySpecific, "QuxBot", url, true);
});

section("ID_AllowDisallow_Value_CaseSensitive", (expect) => {
  const url = "http://foo.bar/x/y";
  expect("user-agent: FooBot\ndisallow: /x/\n", "FooBot", url, false);
  expect("user-agent: FooBot\ndisallow: /X/\n", "FooBot", url, true);
});

section("ID_LongestMatch", (expect) => {
  const url = "http://foo.bar/x/page.html";
  expect("user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n", "FooBot", url, false);
  const allowPage = "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n";
  expect(allowPage, "FooBot", url, true);
  expect(allowPage, "FooBot", "http://foo.bar/x/", false);
  expect("user-agent: FooBot\ndisallow: \nallow: \n", "FooBot", url, true);
  expect("user-agent: FooBot\ndisallow: /\nallow: /\n", "FooBot", url, true);
  const slash = "user-agent: FooBot\ndisallow: /x\nallow: /x/\n";
  expect(slash, "FooBot", "http://foo.bar/x", false);
  expect(slash, "FooBot", "http://foo.bar/x/", true);
  expect("user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n", "FooBot", url, true);
  const star = "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n";
  expect(star, "FooBot", "http://foo.bar/page.html", false);
  expect(star, "FooBot", "http://foo.bar/page", true);
  const dot = "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n";
  expect(dot, "FooBot", url, true);
  expect(dot, "FooBot", "http://foo.bar/x/y.html", false);
  const groups = "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n";
  expect(groups, "FooBot", "http://foo.bar/x/page", true);
  expect(groups, "FooBot", "http://foo.bar/y/page", false);
});

section("ID_Encoding", (expect) => {
  expect(
    "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n",
    "FooBot",
    "http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par",
    true,
  );
  const raw = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n";
  expect(raw, "FooBot", "http://foo.bar/foo/bar/%E3%83%84", true);
  expect(raw, "FooBot", "http://foo.bar/foo/bar/ツ", false);
  const encoded = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n";
  expect(encoded, "FooBot", "http://foo.bar/foo/bar/%E3%83%84", true);
  expect(encoded, "FooBot", "http://foo.bar/foo/bar/ツ", false);
  const unreserved = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n";
  expect(unreserved, "FooBot", "http://foo.bar/foo/bar/baz", false);
  expect(unreserved, "FooBot", "http://foo.bar/foo/bar/%62%61%7A", true);
});

section("ID_SpecialCharacters", (expect) => {
  const star = "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n";
  expect(star, "FooBot", "http://foo.bar/foo/bar/quz", false);
  expect(star, "FooBot", "http://foo.bar/foo/quz", true);
  expect(star, "FooBot", "http://foo.bar/foo//quz", true);
  expect(star, "FooBot", "http://foo.bar/foo/bax/quz", true);
  const dollar = "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n";
  expect(dollar, "FooBot", "http://foo.bar/foo/bar", false);
  expect(dollar, "FooBot", "http://foo.bar/foo/bar/qux", true);
  expect(dollar, "FooBot", "http://foo.bar/foo/bar/", true);
  expect(dollar, "FooBot", "http://foo.bar/foo/bar/baz", true);
  const comment = "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n";
  expect(comment, "FooBot", "http://foo.bar/foo/bar", true);
  expect(comment, "FooBot", "http://foo.bar/foo/quz", false);
});

section("GoogleOnly_IndexHTMLisDirectory", (expect) => {
  const robotstxt = "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n";
  expect(robotstxt, "foobot", "http://foo.com/allowed-slash/", true);
  expect(robotstxt, "foobot", "http://foo.com/allowed-slash/index.htm", false);
  expect(robotstxt, "foobot", "http://foo.com/allowed-slash/index.html", true);
  expect(robotstxt, "foobot", "http://foo.com/anyother-url", false);
});

section("GoogleOnly_LineTooLong", (expect) => {
  const eolLength = "\n".length;
  const maxLineLength = 2083 * 8;
  const allow = "allow: ";
  const disallow = "disallow: ";
  {
    let robotstxt = "user-agent: FooBot\n";
    let longline = "/x/";
    const maxLength = maxLineLength - longline.length - disallow.length + eolLength;
    while (longline.length < maxLength) longline += "a";
    robotstxt += `${disallow}${longline}/qux\n`;
    expect(robotstxt, "FooBot", "http://foo.bar/fux", true);
    expect(robotstxt, "FooBot", `http://foo.bar${longline}/fux`, false);
  }
  {
    let robotstxt = "user-agent: FooBot\ndisallow: /\n";
    let longlineA = "/x/";
    let longlineB = "/x/";
    const maxLength = maxLineLength - longlineA.length - allow.length + eolLength;
    while (longlineA.length < maxLength) {
      longlineA += "a";
      longlineB += "b";
    }
    robotstxt += `${allow}${longlineA}/qux\n`;
    robotstxt += `${allow}${longlineB}/qux\n`;
    expect(robotstxt, "FooBot", "http://foo.bar/", false);
    expect(robotstxt, "FooBot", `http://foo.bar${longlineA}/qux`, true);
    expect(robotstxt, "FooBot", `http://foo.bar${longlineB}/fux`, true);
  }
});

section("GoogleOnly_DocumentationChecks", (expect) => {
  const fish = "user-agent: FooBot\ndisallow: /\nallow: /fish\n";
  expect(fish, "FooBot", "http://foo.bar/bar", false);
  expect(fish, "FooBot", "http://foo.bar/fish", true);
  expect(fish, "FooBot", "http://foo.bar/fish.html", true);
  expect(fish, "FooBot", "http://foo.bar/fish/salmon.html", true);
  expect(fish, "FooBot", "http://foo.bar/fishheads", true);
  expect(fish, "FooBot", "http://foo.bar/fishheads/yummy.html", true);
  expect(fish, "FooBot", "http://foo.bar/fish.html?id=anything", true);
  expect(fish, "FooBot", "http://foo.bar/Fish.asp", false);
  expect(fish, "FooBot", "http://foo.bar/catfish", false);
  expect(fish, "FooBot", "http://foo.bar/?id=fish", false);

  const fishStar = "user-agent: FooBot\ndisallow: /\nallow: /fish*\n";
  expect(fishStar, "FooBot", "http://foo.bar/bar", false);
  expect(fishStar, "FooBot", "http://foo.bar/fish", true);
  expect(fishStar, "FooBot", "http://foo.bar/fish.html", true);
  expect(fishStar, "FooBot", "http://foo.bar/fish/salmon.html", true);
  expect(fishStar, "FooBot", "http://foo.bar/fishheads", true);
  expect(fishStar, "FooBot", "http://foo.bar/fishheads/yummy.html", true);
  expect(fishStar, "FooBot", "http://foo.bar/fish.html?id=anything", true);
  expect(fishStar, "FooBot", "http://foo.bar/Fish.bar", false);
  expect(fishStar, "FooBot", "http://foo.bar/catfish", false);
  expect(fishStar, "FooBot", "http://foo.bar/?id=fish", false);

  const fishSlash = "user-agent: FooBot\ndisallow: /\nallow: /fish/\n";
  expect(fishSlash, "FooBot", "http://foo.bar/bar", false);
  expect(fishSlash, "FooBot", "http://foo.bar/fish/", true);
  expect(fishSlash, "FooBot", "http://foo.bar/fish/salmon", true);
  expect(fishSlash, "FooBot", "http://foo.bar/fish/?salmon", true);
  expect(fishSlash, "FooBot", "http://foo.bar/fish/salmon.html", true);
  expect(fishSlash, "FooBot", "http://foo.bar/fish/?id=anything", true);
  expect(fishSlash, "FooBot", "http://foo.bar/fish", false);
  expect(fishSlash, "FooBot", "http://foo.bar/fish.html", false);
  expect(fishSlash, "FooBot", "http://foo.bar/Fish/Salmon.html", false);

  const php = "user-agent: FooBot\ndisallow: /\nallow: /*.php\n";
  expect(php, "FooBot", "http://foo.bar/bar", false);
  expect(php, "FooBot", "http://foo.bar/filename.php", true);
  expect(php, "FooBot", "http://foo.bar/folder/filename.php", true);
  expect(php, "FooBot", "http://foo.bar/folder/filename.php?parameters", true);
  expect(php, "FooBot", "http://foo.bar//folder/any.php.file.html", true);
  expect(php, "FooBot", "http://foo.bar/filename.php/", true);
  expect(php, "FooBot", "http://foo.bar/index?f=filename.php/", true);
  expect(php, "FooBot", "http://foo.bar/php/", false);
  expect(php, "FooBot", "http://foo.bar/index?php", false);
  expect(php, "FooBot", "http://foo.bar/windows.PHP", false);

  const phpEnd = "user-agent: FooBot\ndisallow: /\nallow: /*.php$\n";
  expect(phpEnd, "FooBot", "http://foo.bar/bar", false);
  expect(phpEnd, "FooBot", "http://foo.bar/filename.php", true);
  expect(phpEnd, "FooBot", "http://foo.bar/folder/filename.php", true);
  expect(phpEnd, "FooBot", "http://foo.bar/filename.php?parameters", false);
  expect(phpEnd, "FooBot", "http://foo.bar/filename.php/", false);
  expect(phpEnd, "FooBot", "http://foo.bar/filename.php5", false);
  expect(phpEnd, "FooBot", "http://foo.bar/php/", false);
  expect(phpEnd, "FooBot", "http://foo.bar/filename?php", false);
  expect(phpEnd, "FooBot", "http://foo.bar/aaaphpaaa", false);
  expect(phpEnd, "FooBot", "http://foo.bar//windows.PHP", false);

  const fishPhp = "user-agent: FooBot\ndisallow: /\nallow: /fish*.php\n";
  expect(fishPhp, "FooBot", "http://foo.bar/bar", false);
  expect(fishPhp, "FooBot", "http://foo.bar/fish.php", true);
  expect(fishPhp, "FooBot", "http://foo.bar/fishheads/catfish.php?parameters", true);
  expect(fishPhp, "FooBot", "http://foo.bar/Fish.PHP", false);

  expect("user-agent: FooBot\nallow: /p\ndisallow: /\n", "FooBot", "http://example.com/page", true);
  expect("user-agent: FooBot\nallow: /folder\ndisallow: /folder\n", "FooBot", "http://example.com/folder/page", true);
  expect("user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n", "FooBot", "http://example.com/page.htm", false);
  const root = "user-agent: FooBot\nallow: /$\ndisallow: /\n";
  expect(root, "FooBot", "http://example.com/", true);
  expect(root, "FooBot", "http://example.com/page.html", false);
});
