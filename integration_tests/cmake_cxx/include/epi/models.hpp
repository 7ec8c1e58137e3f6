#pragma once

#include <memory>
#include <string>
#include <vector>

#include "epi/parameters.hpp"
#include "epi/series.hpp"

namespace epi {

// A compartment model dy/dt = f(t, y).
class Model {
public:
    explicit Model(ParameterSet params) : params_(std::move(params)) {}
    virtual ~Model() = default;

    virtual std::string name() const = 0;
    virtual std::vector<std::string> compartments() const = 0;
    virtual void derivatives(double t, const std::vector<double> &y, std::vector<double> &dydt) const = 0;
    virtual double basic_reproduction_number() const { return 0.0; }
    virtual std::vector<double> initial_state() const;

    const ParameterSet &parameters() const { return params_; }
    // Throws InvalidState if a compartment is negative or not finite.
    void validate(const std::vector<double> &y) const;

    template <typename Stepper>
    TimeSeries<double> simulate(double t_end, int steps, int record_every) const
    {
        std::vector<double> y = initial_state();
        TimeSeries<double> series(y.size());
        const double h = t_end / steps;
        auto rhs = [this](double t, const std::vector<double> &s, std::vector<double> &d) {
            derivatives(t, s, d);
        };
        for (int i = 0; i <= steps; ++i) {
            if (i % record_every == 0)
                series.push(i * h, y);
            if (i < steps)
                Stepper::step(rhs, i * h, h, y);
        }
        validate(y);
        return series;
    }

protected:
    ParameterSet params_;
};

class SIR : public Model {
public:
    using Model::Model;
    std::string name() const override { return "SIR"; }
    std::vector<std::string> compartments() const override;
    void derivatives(double t, const std::vector<double> &y, std::vector<double> &dydt) const override;
    double basic_reproduction_number() const override;

protected:
    // S -> I -> R flows for a given contact rate.
    void flows(double beta, const std::vector<double> &y, std::vector<double> &dydt) const;
};

class SEIR : public SIR {
public:
    using SIR::SIR;
    std::string name() const override { return "SEIR"; }
    std::vector<std::string> compartments() const override;
    void derivatives(double t, const std::vector<double> &y, std::vector<double> &dydt) const override;
    std::vector<double> initial_state() const override;
};

// SIR with a seasonally forced contact rate.
class SeasonalSIR : public SIR {
public:
    using SIR::SIR;
    std::string name() const override { return "SeasonalSIR"; }
    void derivatives(double t, const std::vector<double> &y, std::vector<double> &dydt) const override;
};

std::unique_ptr<Model> make_model(const std::string &kind, ParameterSet params);
std::vector<std::string> model_kinds();

std::string summarize(const Model &model, const TimeSeries<double> &series, const char *stepper);

} // namespace epi
