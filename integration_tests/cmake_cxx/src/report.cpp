#include <cstdio>
#include <sstream>

#include "epi/kahan.h"
#include "epi/models.hpp"

namespace epi {

std::string summarize(const Model &model, const TimeSeries<double> &series, const char *stepper)
{
    std::ostringstream out;
    out.precision(17);
    const auto names = model.compartments();
    const std::size_t infected = names.size() - 2;
    const std::size_t peak = series.argmax(infected);
    out << model.name() << " [" << stepper << "] samples=" << series.size() << " R0=" << model.basic_reproduction_number()
        << "\n";
    out << "  peak " << names[infected] << "=" << series.value(peak, infected) << " at t=" << series.time(peak) << "\n";
    const std::size_t last = series.size() - 1;
    for (std::size_t c = 0; c < names.size(); ++c)
        out << "  final " << names[c] << "=" << series.value(last, c) << "\n";
    const double person_days = series.integrate(infected, [](double v) { return v; });
    std::vector<double> final_state(names.size());
    for (std::size_t c = 0; c < names.size(); ++c)
        final_state[c] = series.value(last, c);
    out << "  final total=" << kahan_sum(final_state.data(), final_state.size()) << "\n";
    char line[128];
    std::snprintf(line, sizeof line, "  infected person-days=%.17g\n", person_days);
    out << line;
    return out.str();
}

} // namespace epi
