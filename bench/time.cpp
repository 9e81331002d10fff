// bench_time: wall time and peak memory of whole commands, run in turn so that their ratios are
// measured in the same conditions (a slow minute of the machine slows every command alike).
//
//   bench_time RUNS NAME CMD [ARG...] [:: NAME CMD [ARG...]]...   -> one JSON document on stdout
//
// Every command runs once untimed first (warms the page cache: the I/O floor is then `cp` from and to
// memory, as every other command sees it), then RUNS rounds of each command in the order given. Wall
// time is taken around fork + exec + wait; peak RSS is the child's own (wait4's ru_maxrss). A command
// that fails stops the benchmark: its times would mean nothing.
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Command {
    std::string name;
    std::vector<std::string> argv;
    std::vector<double> seconds;
    std::vector<double> cpuSeconds;  // user + system, the child's threads together
    long maxRssKiB = 0;
};

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n == 0 ? 0.0 : n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

double secondsOf(const timeval& t) {
    return double(t.tv_sec) + double(t.tv_usec) / 1e6;
}

// The machine's 1-minute load average: other work competing for the cores while we measure.
double loadAverage() {
    double load = 0.0;
    if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
        if (std::fscanf(f, "%lf", &load) != 1) load = 0.0;
        std::fclose(f);
    }
    return load;
}

// Runs the command with stdout to /dev/null; returns its wall time (s), records its CPU time and
// raises maxRssKiB.
double runOnce(Command& command) {
    std::vector<char*> argv;
    for (std::string& arg : command.argv) argv.push_back(arg.data());
    argv.push_back(nullptr);
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        const int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, STDOUT_FILENO);
        execvp(argv[0], argv.data());
        std::perror(argv[0]);
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    if (pid < 0 || wait4(pid, &status, 0, &usage) != pid) {
        std::perror("bench_time");
        std::exit(2);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fprintf(stderr, "bench_time: error: %s failed (%s)\n", command.name.c_str(),
                     command.argv[0].c_str());
        std::exit(2);
    }
    command.maxRssKiB = std::max(command.maxRssKiB, usage.ru_maxrss);  // KiB on Linux
    command.cpuSeconds.push_back(secondsOf(usage.ru_utime) + secondsOf(usage.ru_stime));
    return seconds;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: bench_time RUNS NAME CMD [ARG...] [:: NAME CMD [ARG...]]...\n");
        return 1;
    }
    const int runs = std::max(1, std::atoi(argv[1]));
    std::vector<Command> commands;
    for (int i = 2; i < argc;) {
        Command command;
        command.name = argv[i++];
        while (i < argc && std::string(argv[i]) != "::") command.argv.emplace_back(argv[i++]);
        ++i;  // past "::"
        if (command.argv.empty()) {
            std::fprintf(stderr, "bench_time: error: %s has no command\n", command.name.c_str());
            return 1;
        }
        commands.push_back(std::move(command));
    }

    for (Command& command : commands) runOnce(command);
    for (Command& command : commands) command.cpuSeconds.clear();  // the warm-up's
    const double loadBefore = loadAverage();
    for (int run = 0; run < runs; ++run)
        for (Command& command : commands) command.seconds.push_back(runOnce(command));

    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    out["loadAverage"] = {loadBefore, loadAverage()};  // before and after the timed runs
    for (const Command& command : commands)
        out[command.name] = {{"medianSeconds", median(command.seconds)},
                             {"seconds", command.seconds},
                             {"medianCpuSeconds", median(command.cpuSeconds)},
                             {"maxRssKiB", command.maxRssKiB}};
    std::printf("%s\n", out.dump().c_str());
    return 0;
}
