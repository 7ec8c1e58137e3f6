#include <cmath>
#include <string>

#include "epi/models.hpp"

namespace epi {

std::vector<double> Model::initial_state() const
{
    const double n = params_.get("population");
    const double i0 = params_.get("initial_infected");
    std::vector<double> y(compartments().size(), 0.0);
    y.front() = n - i0;
    y[y.size() - 2] = i0;
    return y;
}

void Model::validate(const std::vector<double> &y) const
{
    for (std::size_t i = 0; i < y.size(); ++i)
        if (!std::isfinite(y[i]) || y[i] < -1e-9)
            throw InvalidState(name() + ": compartment " + compartments()[i] + " left the valid range");
}

std::vector<std::string> SIR::compartments() const
{
    return {"S", "I", "R"};
}

void SIR::derivatives(double, const std::vector<double> &y, std::vector<double> &dydt) const
{
    flows(params_.get("beta"), y, dydt);
}

void SIR::flows(double beta, const std::vector<double> &y, std::vector<double> &dydt) const
{
    const double gamma = params_.get("gamma");
    const double n = y[0] + y[1] + y[2];
    const double infection = beta * y[0] * y[1] / n;
    dydt[0] = -infection;
    dydt[1] = infection - gamma * y[1];
    dydt[2] = gamma * y[1];
}

double SIR::basic_reproduction_number() const
{
    return params_.get("beta") / params_.get("gamma");
}

std::vector<std::string> SEIR::compartments() const
{
    return {"S", "E", "I", "R"};
}

std::vector<double> SEIR::initial_state() const
{
    std::vector<double> y = Model::initial_state();
    // Seed the exposed compartment with as many people as are infected.
    y[1] = y[2];
    y[0] -= y[1];
    return y;
}

void SEIR::derivatives(double, const std::vector<double> &y, std::vector<double> &dydt) const
{
    const double beta = params_.get("beta");
    const double gamma = params_.get("gamma");
    const double sigma = params_.get("sigma");
    const double n = y[0] + y[1] + y[2] + y[3];
    const double infection = beta * y[0] * y[2] / n;
    dydt[0] = -infection;
    dydt[1] = infection - sigma * y[1];
    dydt[2] = sigma * y[1] - gamma * y[2];
    dydt[3] = gamma * y[2];
}

void SeasonalSIR::derivatives(double t, const std::vector<double> &y, std::vector<double> &dydt) const
{
    const double amplitude = params_.get_or("seasonal_amplitude", 0.0);
    const double period = params_.get_or("seasonal_period", 365.0);
    flows(params_.get("beta") * (1.0 + amplitude * std::cos(2.0 * M_PI * t / period)), y, dydt);
}

} // namespace epi
