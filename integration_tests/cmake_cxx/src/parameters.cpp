#include "epi/parameters.hpp"

namespace epi {

MissingParameter::MissingParameter(const std::string &name)
    : std::runtime_error("missing parameter '" + name + "'"), name_(name)
{
}

ParameterSet::ParameterSet(std::initializer_list<std::pair<const std::string, double>> values)
    : values_(values)
{
}

void ParameterSet::set(const std::string &name, double value)
{
    values_[name] = value;
}

double ParameterSet::get(const std::string &name) const
{
    auto it = values_.find(name);
    if (it == values_.end())
        throw MissingParameter(name);
    return it->second;
}

double ParameterSet::get_or(const std::string &name, double fallback) const
{
    try {
        return get(name);
    } catch (const MissingParameter &) {
        return fallback;
    }
}

bool ParameterSet::has(const std::string &name) const
{
    return values_.count(name) != 0;
}

std::vector<std::string> ParameterSet::names() const
{
    std::vector<std::string> out;
    out.reserve(values_.size());
    for (const auto &kv : values_)
        out.push_back(kv.first);
    return out;
}

} // namespace epi
