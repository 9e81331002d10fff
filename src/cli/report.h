// rootbake report: one self-contained HTML page of every clip's analysis.
#pragma once

#include "cli/cli.h"
#include "cli/run.h"
#include "report/report.h"

#include <filesystem>

#include <string>
#include <vector>

namespace rootbake::cli {

struct ReportArgs {
    CommonArgs common;
    std::string output;  // the .html file
    bool force = false;  // overwrite an existing output
};

// Exit codes: 0 written; 1 usage (also: the output is an input or a file it
// reads); 2 bad input (an input does not load, or a clip cannot be analysed
// with the options given): nothing written; 3 cannot write (also: the output
// exists, without --force).
int report(const ReportArgs& args);

// An error unless the output names a file ("out/: not a file name").
Status checkReportOutput(const std::string& output);

// One input's section of the page, from the pipeline's result: each clip analyzeClip refused
// is printed and sets `status` to bad input.
report::AssetReport describeInput(const std::string& input, const gltf::Asset& asset,
                                  const pipeline::Analysed& analysed, int& status);

// The input's file and the files it names: the page must not overwrite one.
void addReads(const InputFile& input, const gltf::Asset& asset, std::vector<std::filesystem::path>& reads);

// The page of `assets` (options: the analysis's, printed in the page) written to args.output
// (checkReportOutput passed)
// or nothing, and its line on stdout. bake --report writes the asset it just baked this way.
int writeReportPage(const ReportArgs& args, const std::vector<report::AssetReport>& assets,
                    const std::vector<std::filesystem::path>& reads, const Options& options);

}  // namespace rootbake::cli
