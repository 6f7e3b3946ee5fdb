// The `alignment:` section of test_tipc/tipc-run.yaml: checks become subcommand argument lists.
#include "config/project_settings.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace tipc::config {
namespace {
namespace TIPC_TEST_FILE {

Result<ProjectSettings> settings_from(test::TempDir& dir, const std::string& yaml) {
  return load_project_settings(dir.write("tipc-run.yaml", yaml));
}

std::string error_of(const std::string& yaml) {
  test::TempDir dir;
  auto settings = settings_from(dir, yaml);
  return settings ? "no error" : settings.error().str();
}

TEST(ProjectSettingsAlignment, EachKindBecomesItsSubcommandArguments) {
  test::TempDir dir;
  const auto settings = settings_from(dir, R"(alignment:
  - name: eager_vs_torchscript
    after: export
    diff: {reference: "{model_dir}/a.npy", candidate: "{model_dir}/b.npy", method: max, threshold: 1.0e-4,
           layout: layout.yaml}
  - name: gt
    after: "*/infer/*fp32*"
    ground_truth: {results: "test_tipc/results/python_{model}_results_*.txt", log: "{log}", atol: 0.01}
  - name: init
    after: train
    init: {reference: a.npy, candidate: b.npy, keys: [fc.weight, conv.weight], bins: 40}
)");
  ASSERT_TRUE(settings.has_value()) << settings.error().str();
  ASSERT_EQ(settings->alignment.size(), 3u);
  const auto& diff = settings->alignment[0];
  EXPECT_EQ(diff.subcommand, CheckKind::kDiff);
  EXPECT_EQ(diff.after.kind, StageKind::kExport);
  EXPECT_EQ(diff.arguments, (std::vector<std::string>{"{model_dir}/a.npy", "{model_dir}/b.npy", "--method", "max",
                                                      "--threshold", "1.0e-4", "--layout", "layout.yaml"}));
  EXPECT_NE(diff.source.find("tipc-run.yaml:2"), std::string::npos) << diff.source;
  EXPECT_EQ(settings->alignment[1].subcommand, CheckKind::kCompareResults);
  EXPECT_EQ(settings->alignment[1].after.kind, std::nullopt);
  EXPECT_EQ(settings->alignment[1].after.id_glob, "*/infer/*fp32*");
  EXPECT_EQ(settings->alignment[1].arguments,
            (std::vector<std::string>{"--gt", "test_tipc/results/python_{model}_results_*.txt", "--log", "{log}",
                                      "--atol", "0.01"}));
  EXPECT_EQ(settings->alignment[2].subcommand, CheckKind::kInitCheck);
  EXPECT_EQ(settings->alignment[2].arguments,
            (std::vector<std::string>{"a.npy", "b.npy", "--key", "fc.weight", "--key", "conv.weight", "--bins", "40"}));
  EXPECT_EQ(settings->timeouts.at(StageKind::kCheck), 600);
}

TEST(ProjectSettingsAlignment, ModesAndTheLabelsComparison) {
  test::TempDir dir;
  const auto settings = settings_from(dir, R"(alignment:
  - name: labels
    after: "*/infer/*fp32*"
    modes: [lite_train_lite_infer, whole_train_whole_infer]
    ground_truth: {results: r.txt, log: "{log}", compare: labels}
  - name: exact
    after: "*/infer/*fp32*"
    ground_truth: {results: r.txt, log: "{log}", compare: allclose, atol: 1.0e-5}
)");
  ASSERT_TRUE(settings.has_value()) << settings.error().str();
  const auto& labels = settings->alignment[0];
  EXPECT_EQ(labels.modes, (std::vector<std::string>{"lite_train_lite_infer", "whole_train_whole_infer"}));
  EXPECT_EQ(labels.arguments, (std::vector<std::string>{"--gt", "r.txt", "--log", "{log}", "--compare", "labels"}));
  EXPECT_TRUE(settings->alignment[1].modes.empty()) << "no modes: every mode";
  EXPECT_EQ(settings->alignment[1].arguments,
            (std::vector<std::string>{"--gt", "r.txt", "--log", "{log}", "--atol", "1.0e-5", "--compare", "allclose"}));
}

TEST(ProjectSettingsAlignment, BadModesOrComparisonsNameFileLineAndKey) {
  const std::string head = "alignment:\n  - name: x\n    after: export\n";
  const std::string truth = "    ground_truth: {results: r, log: l";
  EXPECT_NE(error_of(head + truth + ", compare: scores}\n")
                .find(":4: key 'compare': 'scores' is not one of: allclose, labels"),
            std::string::npos)
      << error_of(head + truth + ", compare: scores}\n");
  EXPECT_NE(error_of(head + truth + ", compare: labels, atol: 0.1}\n")
                .find(":4: key 'atol': does not apply to compare: labels"),
            std::string::npos)
      << error_of(head + truth + ", compare: labels, atol: 0.1}\n");
  EXPECT_NE(error_of(head + "    modes: whole_infer\n" + truth + "}\n")
                .find(":4: key 'modes': expected a non-empty list of MODE names"),
            std::string::npos)
      << error_of(head + "    modes: whole_infer\n" + truth + "}\n");
  EXPECT_NE(error_of(head + "    modes: []\n" + truth + "}\n").find("key 'modes': expected a non-empty list"),
            std::string::npos);
  EXPECT_NE(error_of(head + "    modes: [whole infer]\n" + truth + "}\n").find(":4: key 'modes': expected a MODE name"),
            std::string::npos)
      << error_of(head + "    modes: [whole infer]\n" + truth + "}\n");
  EXPECT_NE(error_of(head + "    mode: [whole_infer]\n" + truth + "}\n").find(":4: key 'mode': unknown key"),
            std::string::npos);
}

TEST(ProjectSettingsAlignment, MistakesNameFileLineAndKey) {
  const std::string head = "alignment:\n  - name: x\n    after: export\n";
  EXPECT_NE(
      error_of(head + "    diff: {reference: a, candidate: b, metod: max}\n").find(":4: key 'metod': unknown key"),
      std::string::npos)
      << error_of(head + "    diff: {reference: a, candidate: b, metod: max}\n");
  EXPECT_NE(error_of(head + "    diff: {reference: a}\n").find("key 'candidate': missing"), std::string::npos);
  EXPECT_NE(error_of(head + "    diff: {reference: a, candidate: b, method: median}\n").find("expected mean, min, max"),
            std::string::npos);
  EXPECT_NE(error_of(head + "    diff: {reference: a, candidate: b, threshold: -1}\n").find("must not be negative"),
            std::string::npos);
  EXPECT_NE(error_of(head + "    diff: {reference: a, candidate: b, threshold: small}\n").find("expected a number"),
            std::string::npos);
  EXPECT_NE(error_of(head + "    diff: {reference: a, candidate: b}\n    init: {reference: a, candidate: b}\n")
                .find("exactly one of diff, ground_truth or init"),
            std::string::npos);
  EXPECT_NE(error_of(head + "    ground_truth: {results: r, log: l, format: csv}\n")
                .find("key 'format': 'csv' is not one of: tipc, video, metric"),
            std::string::npos);
  EXPECT_NE(error_of("alignment:\n  - name: x\n    diff: {reference: a, candidate: b}\n").find("key 'after': missing"),
            std::string::npos);
  EXPECT_NE(error_of("alignment:\n  - name: 'a b'\n    after: export\n    diff: {reference: a, candidate: b}\n")
                .find("use letters, digits"),
            std::string::npos);
  const std::string twice = head + "    diff: {reference: a, candidate: b}\n" +
                            "  - name: x\n    after: infer\n    diff: {reference: a, candidate: b}\n";
  EXPECT_NE(error_of(twice).find(":5: key 'name': 'x' is already used"), std::string::npos) << error_of(twice);
  EXPECT_NE(error_of("alignment: {name: x}\n").find("expected a list"), std::string::npos);
}

TEST(ProjectSettingsSlurm, PartitionAccountCpusAndSrunFlags) {
  test::TempDir dir;
  const auto settings = settings_from(dir, R"(slurm:
  partition: gpu
  account: vision
  cpus_per_task: 8
  srun_args: ["--qos=ci", "--constraint=a100"]
)");
  ASSERT_TRUE(settings.has_value()) << settings.error().str();
  EXPECT_EQ(settings->slurm.partition, "gpu");
  EXPECT_EQ(settings->slurm.account, "vision");
  EXPECT_EQ(settings->slurm.cpus_per_task, 8);
  EXPECT_EQ(settings->slurm.srun_args, (std::vector<std::string>{"--qos=ci", "--constraint=a100"}));
  EXPECT_TRUE(settings->slurm.tipc_run_places);
  const auto by_slurm = settings_from(dir, "slurm:\n  placement: slurm\n");
  ASSERT_TRUE(by_slurm.has_value()) << by_slurm.error().str();
  EXPECT_FALSE(by_slurm->slurm.tipc_run_places);
}

TEST(ProjectSettingsSlurm, MistakesNameFileLineAndKey) {
  EXPECT_NE(error_of("slurm:\n  partitions: gpu\n").find("tipc-run.yaml:2: key 'partitions': unknown key"),
            std::string::npos)
      << error_of("slurm:\n  partitions: gpu\n");
  EXPECT_NE(error_of("slurm:\n  cpus_per_task: many\n").find(":2: key 'cpus_per_task': expected an integer"),
            std::string::npos);
  EXPECT_NE(error_of("slurm:\n  cpus_per_task: 0\n").find("must be at least 1"), std::string::npos);
  EXPECT_NE(error_of("slurm:\n  srun_args: [\"--qos=ci\", \"qos\"]\n").find("'qos' is not an srun flag"),
            std::string::npos);
  EXPECT_NE(error_of("slurm: [gpu]\n").find(":1: key 'slurm': expected a map"), std::string::npos)
      << error_of("slurm: [gpu]\n");
  EXPECT_NE(error_of("slurm:\n  cpus_per_task: 2\n  placement: mine\n")
                .find("tipc-run.yaml:3: key 'placement': 'mine' is neither tipc-run"),
            std::string::npos)
      << error_of("slurm:\n  cpus_per_task: 2\n  placement: mine\n");
}

TEST(ProjectSettingsFile, EveryProblemIsReportedAtOnceEachWithItsLine) {
  const std::string text = error_of(
      "jobs: 0\n"
      "timeouts: {train: soon}\n"
      "log_checks:\n"
      "  - {pattern: '(', kinds: [training]}\n"
      "slurm: {partitions: gpu}\n");
  for (const char* expected :
       {"tipc-run.yaml:1: key 'jobs': must be at least 1", "tipc-run.yaml:2: key 'train': expected a number of seconds",
        "tipc-run.yaml:4: key 'pattern': not a valid regular expression",
        "tipc-run.yaml:4: key 'kinds': unknown stage kind 'training' (known: train, eval, export, infer, "
        "check, convert, service, other, setup)",
        "tipc-run.yaml:5: key 'partitions': unknown key in slurm"}) {
    EXPECT_NE(text.find(expected), std::string::npos) << expected << "\nin:\n" << text;
  }
}

TEST(ProjectSettingsCpuTrainProcesses, OneNumberForEveryModeOrOnePerModeWithADefault) {
  test::TempDir dir;
  const auto one = settings_from(dir, "cpu_train_processes: 3\n");
  ASSERT_TRUE(one.has_value()) << one.error().str();
  EXPECT_EQ(one->cpu_train_processes_for("lite_train_lite_infer"), 3);
  EXPECT_EQ(one->cpu_train_processes_for("benchmark_train"), 3);
  const auto per_mode = settings_from(dir, "cpu_train_processes: {default: 2, benchmark_train: 1}\n");
  ASSERT_TRUE(per_mode.has_value()) << per_mode.error().str();
  EXPECT_EQ(per_mode->cpu_train_processes_for("lite_train_lite_infer"), 2);
  EXPECT_EQ(per_mode->cpu_train_processes_for("benchmark_train"), 1);
  const auto no_default = settings_from(dir, "cpu_train_processes: {benchmark_train: 4}\n");
  ASSERT_TRUE(no_default.has_value()) << no_default.error().str();
  EXPECT_EQ(no_default->cpu_train_processes_for("whole_infer"), 1);
  EXPECT_EQ(no_default->cpu_train_processes_for("benchmark_train"), 4);
}

TEST(ProjectSettingsCpuTrainProcesses, AModesNumberBelowOneNamesItsLineAndMode) {
  const std::string text = error_of("jobs: 2\ncpu_train_processes:\n  default: 2\n  benchmark_train: 0\n");
  EXPECT_NE(text.find("tipc-run.yaml:4: key 'benchmark_train': must be at least 1"), std::string::npos) << text;
  EXPECT_NE(error_of("cpu_train_processes: [1]\n").find(":1: key 'cpu_train_processes': expected an integer"),
            std::string::npos)
      << error_of("cpu_train_processes: [1]\n");
}

// `modes:` (issue 39): the MODEs of a run that names none, one or a list, each once.
TEST(ProjectSettingsModes, OneModeOrAListAndMistakesNameFileLineAndKey) {
  test::TempDir dir;
  const auto one = settings_from(dir, "modes: whole_infer\n");
  ASSERT_TRUE(one) << one.error().str();
  EXPECT_EQ(one->modes, std::vector<std::string>{"whole_infer"});
  const auto list = settings_from(dir, "jobs: 2\nmodes: [lite_train_lite_infer, cpp_infer]\n");
  ASSERT_TRUE(list) << list.error().str();
  EXPECT_EQ(list->modes, (std::vector<std::string>{"lite_train_lite_infer", "cpp_infer"}));
  EXPECT_EQ(list->modes_line, 2);
  const auto bad = settings_from(dir, "modes:\n  - whole_infer\n  - whole_infer\n  - [x]\n");
  ASSERT_FALSE(bad);
  const std::string text = bad.error().str();
  EXPECT_NE(text.find("tipc-run.yaml:3: key 'modes': MODE 'whole_infer' twice"), std::string::npos) << text;
  EXPECT_NE(text.find("tipc-run.yaml:4: key 'modes': expected a string"), std::string::npos) << text;
  const auto empty = settings_from(dir, "modes: []\n");
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().str().find("key 'modes': an empty list"), std::string::npos) << empty.error().str();
}

TEST(ProjectSettingsTimeouts, EveryStageKindTakesATimeout) {
  test::TempDir dir;
  const auto settings = settings_from(dir, "timeouts: {setup: 60, convert: 30, service: 900, other: 5, grace: 2}\n");
  ASSERT_TRUE(settings.has_value()) << settings.error().str();
  EXPECT_EQ(settings->timeouts.at(StageKind::kSetup), 60);
  EXPECT_EQ(settings->timeouts.at(StageKind::kConvert), 30);
  EXPECT_EQ(settings->timeouts.at(StageKind::kService), 900);
  EXPECT_EQ(settings->timeouts.at(StageKind::kOther), 5);
  EXPECT_EQ(settings->timeouts.at(StageKind::kTrain), 7200);  // the default of a kind not named
  EXPECT_EQ(settings->grace, 2);
}

TEST(ProjectSettingsTimeouts, AConversionAndOtherProgramsTakeTheExportsUnlessGivenTheirOwn) {
  test::TempDir dir;
  const auto settings = settings_from(dir, "timeouts: {export: 120, other: 7}\n");
  ASSERT_TRUE(settings.has_value()) << settings.error().str();
  EXPECT_EQ(settings->timeouts.at(StageKind::kConvert), 120);
  EXPECT_EQ(settings->timeouts.at(StageKind::kOther), 7);
  EXPECT_FALSE(ProjectSettings{}.timeouts.contains(StageKind::kService)) << "a service runs as long as its clients";
}

TEST(ProjectSettingsTimeouts, AnUnknownKindNamesFileLineKeyAndTheKnownKinds) {
  const std::string text = error_of("jobs: 2\ntimeouts:\n  trian: 60\n");
  EXPECT_NE(text.find("tipc-run.yaml:3: key 'timeouts': unknown stage kind 'trian' (known: train, eval, export, "
                      "infer, check, convert, service, other, setup; or grace, idle)"),
            std::string::npos)
      << text;
}

TEST(ProjectSettingsTimeouts, IdleIsASilenceLimitOfEveryStage) {
  test::TempDir dir;
  const auto settings = settings_from(dir, "timeouts: {idle: 900, train: 60}\n");
  ASSERT_TRUE(settings.has_value()) << settings.error().str();
  EXPECT_EQ(settings->idle_timeout, 900);
  EXPECT_EQ(ProjectSettings{}.idle_timeout, 0) << "none unless given";
  EXPECT_NE(error_of("timeouts: {idle: -1}\n").find("key 'idle': must not be negative"), std::string::npos);
}

TEST(ProjectSettingsGpus, ExpectReleaseWaitAndExclusiveAreReadAndCheckedAtTheirLines) {
  test::TempDir dir;
  const auto settings = settings_from(dir, "gpus:\n  expect: 8\n  release_wait: 5\n  exclusive: true\n");
  ASSERT_TRUE(settings.has_value()) << settings.error().str();
  EXPECT_EQ(settings->gpus.expect, 8);
  EXPECT_EQ(settings->gpus.release_wait, 5);
  EXPECT_TRUE(settings->gpus.exclusive);
  EXPECT_EQ(ProjectSettings{}.gpus.release_wait, 30);
  EXPECT_FALSE(ProjectSettings{}.gpus.exclusive);
  const std::string text = error_of("gpus:\n  expect: 0\n  realease_wait: 5\n");
  EXPECT_NE(text.find("tipc-run.yaml:2: key 'expect': must be at least 1"), std::string::npos) << text;
  EXPECT_NE(text.find("tipc-run.yaml:3: key 'realease_wait'"), std::string::npos) << text;
}

TEST(ProjectSettingsAlignment, AfterAKindIsThatKindAndACheckNeverFollowsACheck) {
  test::TempDir dir;
  const auto settings =
      settings_from(dir, "alignment:\n  - name: x\n    after: convert\n    diff: {reference: a, candidate: b}\n");
  ASSERT_TRUE(settings.has_value()) << settings.error().str();
  EXPECT_EQ(settings->alignment[0].after.kind, StageKind::kConvert);
  EXPECT_EQ(settings->alignment[0].after.text, "convert");
  const std::string text =
      error_of("alignment:\n  - name: x\n    after: check\n    diff: {reference: a, candidate: b}\n");
  EXPECT_NE(text.find("tipc-run.yaml:3: key 'after': a check never follows a check"), std::string::npos) << text;
}

TEST(ProjectSettingsFile, AWrongShapeIsAnErrorNamingTheKeyNotIgnoredOrAYamlCppMessage) {
  EXPECT_NE(error_of("timeouts: 5\n").find(":1: key 'timeouts': expected a map"), std::string::npos)
      << error_of("timeouts: 5\n");
  EXPECT_NE(error_of("data: [1]\n").find(":1: key 'data': expected a map"), std::string::npos);
  EXPECT_NE(error_of("log_checks: {pattern: x}\n").find(":1: key 'log_checks': expected a list"), std::string::npos);
  EXPECT_NE(error_of("data:\n  all: {archive: a}\n").find(":2: key 'all': expected a list of data steps"),
            std::string::npos);
  EXPECT_NE(error_of("data:\n  all:\n    - {archive: a, destination: d}\n").find(":3: key 'creates': missing"),
            std::string::npos);
}

TEST(ProjectSettingsFile, AMissingFileNamesItAndWhy) {
  test::TempDir dir;
  const auto settings = load_project_settings((dir.path() / "absent.yaml").string());
  ASSERT_FALSE(settings);
  EXPECT_NE(settings.error().str().find("absent.yaml: cannot read the settings file: No such file"), std::string::npos)
      << settings.error().str();
}

// A missing archive is found when planning (so --dry-run fails on it), named with the
// settings file and the line of its `archive:`.
TEST(ProjectSettingsFile, AMissingDataArchiveIsNamedWithTheSettingsLine) {
  test::TempDir repo;
  repo.write("lite_data/here.tar", "");
  const auto settings = load_project_settings(repo.write("test_tipc/tipc-run.yaml", R"(data:
  all:
    - {archive: lite_data/here.tar, destination: lite_data, creates: here}
  lite_train_lite_infer:
    - archive: lite_data/gone.tar
      destination: lite_data
      creates: gone
)"));
  ASSERT_TRUE(settings) << settings.error().str();
  EXPECT_TRUE(missing_data_archives(*settings, "whole_infer", repo.path().string()).empty());
  const auto missing = missing_data_archives(*settings, "lite_train_lite_infer", repo.path().string());
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].line, 5);
  EXPECT_EQ(missing[0].key, "archive");
  EXPECT_EQ(missing[0].str(), settings->path +
                                  ":5: the data archive 'lite_data/gone.tar' of mode "
                                  "lite_train_lite_infer is not a file under " +
                                  repo.path().string() +
                                  ": put it there (or fix the path, relative to the repository root)");
}

// Each at the line of its own key: a block-style step has archive and destination apart.
TEST(ProjectSettingsFile, DataStepPathsThatCouldLeaveTheRepositoryAreNamedWithTheirLineAndKey) {
  test::TempDir repo;
  const auto settings = load_project_settings(repo.write("test_tipc/tipc-run.yaml", R"(data:
  all:
    - {archive: lite_data/here.tar, destination: ., creates: here}
  whole_infer:
    - archive: /srv/weights.tar
      destination: ../../models
      creates: weights
)"));
  ASSERT_TRUE(settings) << settings.error().str();
  EXPECT_TRUE(unconfined_data_paths(*settings, "lite_train_lite_infer").empty());
  const auto unconfined = unconfined_data_paths(*settings, "whole_infer");
  ASSERT_EQ(unconfined.size(), 2u);
  EXPECT_EQ(unconfined[0].line, 5);
  EXPECT_EQ(unconfined[0].key, "archive");
  EXPECT_EQ(unconfined[1].line, 6);
  EXPECT_EQ(unconfined[1].key, "destination");
  EXPECT_EQ(unconfined[1].str(), settings->path +
                                     ":6: the data step's destination '../../models' must be a path inside "
                                     "the repository, relative to its root and without '..' (--compat "
                                     "accepts it)");
}

}  // namespace TIPC_TEST_FILE
}  // namespace
}  // namespace tipc::config
