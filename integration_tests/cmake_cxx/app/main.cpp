// Runs every compartment model with several integrators and reports epidemic curves.
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <vector>

#include "epi/models.hpp"

namespace {

epi::ParameterSet base_parameters()
{
    return {
        {"population", 1.0e6},
        {"initial_infected", 10.0},
        {"beta", 0.32},
        {"gamma", 0.1},
        {"sigma", 0.2},
        {"seasonal_amplitude", 0.25},
    };
}

template <typename Stepper>
void run(const epi::Model &model, double t_end, int steps)
{
    auto series = model.template simulate<Stepper>(t_end, steps, steps / 8);
    std::cout << epi::summarize(model, series, Stepper::name);
}

} // namespace

int main()
{
    std::cout << std::setprecision(17);
    std::vector<std::unique_ptr<epi::Model>> models;
    for (const auto &kind : epi::model_kinds())
        models.push_back(epi::make_model(kind, base_parameters()));

    for (const auto &model : models) {
        run<epi::Euler>(*model, 200.0, 4000);
        run<epi::Heun>(*model, 200.0, 2000);
        run<epi::RungeKutta4>(*model, 200.0, 800);
    }

    // Error handling paths: each of these throws and is reported.
    try {
        epi::make_model("sis", base_parameters());
    } catch (const std::invalid_argument &e) {
        std::cout << "error: " << e.what() << "\n";
    }
    try {
        auto model = epi::make_model("seir", epi::ParameterSet{{"population", 5.0e4}, {"initial_infected", 3.0}});
        run<epi::RungeKutta4>(*model, 10.0, 100);
    } catch (const epi::MissingParameter &e) {
        std::cout << "error: " << e.what() << " (name=" << e.name() << ")\n";
    }
    try {
        epi::TimeSeries<double> s(3);
        s.push(0.0, {1.0, 2.0});
    } catch (const std::length_error &e) {
        std::cout << "error: " << e.what() << "\n";
    }

    epi::ParameterSet p = base_parameters();
    std::printf("parameters:");
    for (const auto &name : p.names())
        std::printf(" %s=%.17g", name.c_str(), p.get(name));
    std::printf("\nseasonal_period default=%.17g\n", p.get_or("seasonal_period", 365.0));
    return 0;
}
