#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace epi {

class MissingParameter : public std::runtime_error {
public:
    explicit MissingParameter(const std::string &name);
    const std::string &name() const { return name_; }

private:
    std::string name_;
};

class InvalidState : public std::domain_error {
public:
    using std::domain_error::domain_error;
};

// Named model parameters with lookups that fail loudly.
class ParameterSet {
public:
    ParameterSet() = default;
    ParameterSet(std::initializer_list<std::pair<const std::string, double>> values);

    void set(const std::string &name, double value);
    double get(const std::string &name) const;
    double get_or(const std::string &name, double fallback) const;
    bool has(const std::string &name) const;
    std::vector<std::string> names() const;
    std::size_t size() const { return values_.size(); }

private:
    std::map<std::string, double> values_;
};

} // namespace epi
