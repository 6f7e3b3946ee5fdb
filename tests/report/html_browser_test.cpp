// report.html in a real browser: Debian's headless chromium renders the sample report,
// takes a screenshot (kept in the build directory for people to look at) and proves that
// the page has no script errors, no console messages and loads nothing.
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>

#include "report/html_report.h"
#include "report/html_text.h"
#include "report/trend_html.h"
#include "support/paths.h"
#include "support/realistic_run_report.h"
#include "support/run_binary.h"
#include "support/sample_trends.h"
#include "support/temp_dir.h"

namespace tipc::report {
namespace {
namespace TIPC_TEST_FILE {
namespace fs = std::filesystem;

constexpr int kWidth = 1280, kHeight = 2400;

std::optional<std::string> find_chromium() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    for (const char* name : {"chromium", "chromium-browser"}) {
      const std::string candidate = dir + "/" + name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
  }
  return std::nullopt;
}

struct BrowserRun {
  int exit_code = -1;
  std::string out, err;
};

// Runs headless chromium with its own profile in `scratch`, bounded in time.
BrowserRun run_chromium(const std::string& chromium, const fs::path& scratch, const std::string& arguments) {
  const fs::path out = scratch / "browser.out", err = scratch / "browser.err";
  const std::string command = "timeout 120 " + test::shell_quote(chromium) +
                              " --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars" +
                              " --user-data-dir=" + test::shell_quote((scratch / "profile").string()) + " " +
                              arguments + " >" + test::shell_quote(out.string()) + " 2>" +
                              test::shell_quote(err.string()) + " </dev/null";
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, test::slurp(out.string()), test::slurp(err.string())};
}

// Chromium's log lines about the page: console messages, uncaught errors, failed loads.
std::vector<std::string> page_problems_in_log(const std::string& log) {
  std::vector<std::string> problems;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    const bool about_page = line.find(":CONSOLE") != std::string::npos || line.find("Uncaught") != std::string::npos ||
                            line.find("net::ERR_") != std::string::npos;
    if (about_page) problems.push_back(line);
  }
  return problems;
}

// Runs before the page's Content-Security-Policy (a policy does not cover what precedes
// it) and writes, once the page has loaded, every problem it saw into <pre id="tipc-probe">.
constexpr std::string_view kProbe = R"js(<script>
(function () {
  var problems = [];
  window.addEventListener('error', function (e) {
    var t = e.target;
    problems.push(t && t !== window ? 'failed to load <' + t.tagName + '> ' + (t.src || t.href || '')
                                    : 'error: ' + e.message);
  }, true);
  document.addEventListener('securitypolicyviolation', function (e) {
    problems.push('blocked by the policy: ' + e.blockedURI + ' (' + e.violatedDirective + ')');
  });
  ['error', 'warn'].forEach(function (level) {
    var original = console[level];
    console[level] = function () {
      problems.push('console.' + level + ': ' + Array.prototype.join.call(arguments, ' '));
      original.apply(console, arguments);
    };
  });
  window.addEventListener('load', function () {
    document.querySelectorAll('[src], link, iframe, object, embed, image, use').forEach(function (e) {
      problems.push('an element that fetches: <' + e.tagName + '>');
    });
    var out = document.createElement('pre');
    out.id = 'tipc-probe';
    out.textContent = JSON.stringify(problems);
    document.body.appendChild(out);
  });
})();
</script>
)js";

std::string with_probe(std::string html) {
  const std::size_t head = html.find("<head>\n");
  if (head != std::string::npos) html.insert(head + 7, kProbe);
  return html;
}

struct PngHeader {
  std::uint32_t width = 0, height = 0;
};

std::uint32_t big_endian(const std::string& bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i) value = value << 8 | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

std::optional<PngHeader> png_header(const std::string& bytes) {
  static const std::string kSignature = "\x89PNG\r\n\x1a\n";
  if (bytes.size() < 24 || bytes.compare(0, 8, kSignature) != 0 || bytes.compare(12, 4, "IHDR") != 0) {
    return std::nullopt;
  }
  return PngHeader{big_endian(bytes, 16), big_endian(bytes, 20)};
}

class HtmlBrowser : public ::testing::Test {
 protected:
  void SetUp() override {
    chromium_ = find_chromium();
    if (chromium_) return;
    const std::string why =
        "chromium is not installed, so report.html is not checked in a browser "
        "(scripts/install-deps.sh installs it)";
    std::cerr << "\n*** SKIPPING THE BROWSER TEST: " << why << " ***\n\n";
    if (std::getenv("CI")) FAIL() << why << "; CI is set, where this is a failure";
    GTEST_SKIP() << why;
  }

  std::optional<std::string> chromium_;
  test::TempDir scratch_;
};

TEST_F(HtmlBrowser, ScreenshotOfTheSampleReportIsARealImageAndTheConsoleStaysQuiet) {
  const fs::path build_dir = fs::path(test::tipc_run_binary()).parent_path();
  const fs::path page = build_dir / "report-screenshot.html", screenshot = build_dir / "report-screenshot.png";
  std::ofstream(page, std::ios::binary) << render_html_report(test::realistic::run_report());
  fs::remove(screenshot);

  const BrowserRun run =
      run_chromium(*chromium_, scratch_.path(),
                   "--enable-logging=stderr --v=0 --screenshot=" + test::shell_quote(screenshot.string()) +
                       " --window-size=" + std::to_string(kWidth) + "," + std::to_string(kHeight) + " " +
                       test::shell_quote(file_url(page.string())));
  std::cout << "report.html: " << page.string() << "\nscreenshot: " << screenshot.string() << "\n";

  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(page_problems_in_log(run.err), std::vector<std::string>{});
  const std::string png = test::slurp(screenshot.string());
  const auto header = png_header(png);
  ASSERT_TRUE(header) << screenshot << " is no PNG";
  EXPECT_EQ(header->width, static_cast<std::uint32_t>(kWidth));
  EXPECT_EQ(header->height, static_cast<std::uint32_t>(kHeight));
  // A blank page of this size compresses to a few KiB; charts, tables and text do not.
  EXPECT_GT(png.size(), 100u << 10) << "the screenshot looks empty";
}

// What the probe and chromium's log say about a page.
struct PageReport {
  BrowserRun run;
  std::optional<std::string> probe;  // the probe's JSON list; nullopt if it never reported
  std::vector<std::string> log_problems;
};

PageReport open_with_probe(const std::string& chromium, const test::TempDir& scratch, const std::string& html) {
  const std::string page = scratch.write("probed report.html", with_probe(html));
  PageReport report;
  report.run = run_chromium(chromium, scratch.path(),
                            "--enable-logging=stderr --v=0 --dump-dom " + test::shell_quote(file_url(page)));
  std::smatch probe;
  if (std::regex_search(report.run.out, probe, std::regex("<pre id=\"tipc-probe\">(.*?)</pre>"))) {
    report.probe = probe[1].str();
  }
  report.log_problems = page_problems_in_log(report.run.err);
  return report;
}

TEST_F(HtmlBrowser, PageHasNoScriptErrorsAndFetchesNothing) {
  const std::string html = render_html_report(test::realistic::run_report());
  ASSERT_NE(html.find("<head>\n"), std::string::npos) << "no <head> to put the probe into";

  const PageReport page = open_with_probe(*chromium_, scratch_, html);

  ASSERT_EQ(page.run.exit_code, 0) << page.run.err;
  ASSERT_TRUE(page.probe) << "the probe did not report: scripts did not run or the page did not load\n" << page.run.err;
  EXPECT_EQ(*page.probe, "[]");
  EXPECT_EQ(page.log_problems, std::vector<std::string>{});
  EXPECT_NE(page.run.out.find("<h1>FAIL ("), std::string::npos);  // the page itself was parsed
}

// The history page (`tipc-run history --html`) and report.html with its history section:
// inline SVG with tooltips and markers, still nothing fetched and no errors.
TEST_F(HtmlBrowser, HistoryChartsHaveNoScriptErrorsAndFetchNothing) {
  RunReport with_trends = test::realistic::run_report();
  with_trends.trends = test::sample_trends();
  for (const std::string& html : {render_trend_page(test::sample_trends()), render_html_report(with_trends)}) {
    const PageReport page = open_with_probe(*chromium_, scratch_, html);
    ASSERT_EQ(page.run.exit_code, 0) << page.run.err;
    ASSERT_TRUE(page.probe) << page.run.err;
    EXPECT_EQ(*page.probe, "[]");
    EXPECT_EQ(page.log_problems, std::vector<std::string>{});
    EXPECT_NE(page.run.out.find("<circle class=\"point trend-regressed\""), std::string::npos);  // parsed as SVG
  }
}

// The checks above are only worth something if they see a broken page as broken.
TEST_F(HtmlBrowser, ProbeAndLogCatchABrokenPage) {
  std::string html = render_html_report(test::realistic::run_report());
  html.insert(html.find("</main>"),
              "<img src=\"missing.png\"><div style=\"background-image:url(http://example.invalid/a.png)\">x</div>"
              "<script>undefined_function()</script>");

  const PageReport page = open_with_probe(*chromium_, scratch_, html);

  ASSERT_TRUE(page.probe) << page.run.err;
  EXPECT_NE(page.probe->find("failed to load &lt;IMG&gt;"), std::string::npos) << *page.probe;
  EXPECT_NE(page.probe->find("an element that fetches: &lt;IMG&gt;"), std::string::npos) << *page.probe;
  EXPECT_GE(page.log_problems.size(), 2u) << page.run.err;  // the image and the script, refused by the policy
}

// Measures the laid-out page once it has loaded: how wide it is against the window, and the
// tallest row and the stage column of the inference-latency table, as "WIDTH VIEWPORT ROW COLUMN".
constexpr std::string_view kLayoutProbe = R"js(<script>
window.addEventListener('load', function () {
  var root = document.documentElement, row = 0, column = 0;
  document.querySelectorAll('h3').forEach(function (h) {
    if (h.textContent !== 'Inference latency') return;
    var table = null;
    for (var n = h.nextElementSibling; n && !table; n = n.nextElementSibling) table = n.querySelector('table');
    if (!table) return;
    table.querySelectorAll('tbody tr').forEach(function (tr) { row = Math.max(row, tr.getBoundingClientRect().height); });
    column = table.querySelector('tbody td').getBoundingClientRect().width;
  });
  var out = document.createElement('pre');
  out.id = 'tipc-layout';
  out.textContent = [root.scrollWidth, root.clientWidth, Math.round(row), Math.round(column)].join(' ');
  document.body.appendChild(out);
});
</script>
)js";

// At 1400 px (a laptop's browser): the page does not scroll sideways, and the inference
// latency table's rows stay one or two lines high with a stage column wide enough to read
// (before: a 58 px column, two characters a line, rows about 370 px tall).
TEST_F(HtmlBrowser, At1400PixelsNothingScrollsSidewaysAndTheLatencyTableIsReadable) {
  std::string html = render_html_report(test::realistic::run_report());
  html.insert(html.find("<head>\n") + 7, kLayoutProbe);
  const std::string page = scratch_.write("layout report.html", html);
  const BrowserRun run = run_chromium(*chromium_, scratch_.path(),
                                      "--window-size=1400,2000 --dump-dom " + test::shell_quote(file_url(page)));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::smatch figures;
  ASSERT_TRUE(
      std::regex_search(run.out, figures, std::regex("<pre id=\"tipc-layout\">(\\d+) (\\d+) (\\d+) (\\d+)</pre>")))
      << run.err;
  const int page_width = std::stoi(figures[1]), viewport = std::stoi(figures[2]);
  const int tallest_row = std::stoi(figures[3]), stage_column = std::stoi(figures[4]);
  EXPECT_LE(page_width, viewport) << "the page scrolls sideways";
  EXPECT_GT(tallest_row, 0) << "no inference latency table";
  EXPECT_LE(tallest_row, 80) << "a latency row is " << tallest_row << " px tall";
  EXPECT_GE(stage_column, 200) << "the stage column is " << stage_column << " px wide";
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::report
