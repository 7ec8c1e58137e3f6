#include <functional>
#include <map>
#include <stdexcept>

#include "epi/models.hpp"

namespace epi {

namespace {

using Maker = std::function<std::unique_ptr<Model>(ParameterSet)>;

const std::map<std::string, Maker> &registry()
{
    static const std::map<std::string, Maker> makers = {
        {"sir", [](ParameterSet p) { return std::make_unique<SIR>(std::move(p)); }},
        {"seir", [](ParameterSet p) { return std::make_unique<SEIR>(std::move(p)); }},
        {"seasonal", [](ParameterSet p) { return std::make_unique<SeasonalSIR>(std::move(p)); }},
    };
    return makers;
}

} // namespace

std::unique_ptr<Model> make_model(const std::string &kind, ParameterSet params)
{
    auto it = registry().find(kind);
    if (it == registry().end())
        throw std::invalid_argument("unknown model kind '" + kind + "'");
    if (!params.has("population"))
        throw MissingParameter("population");
    return it->second(std::move(params));
}

std::vector<std::string> model_kinds()
{
    std::vector<std::string> kinds;
    for (const auto &kv : registry())
        kinds.push_back(kv.first);
    return kinds;
}

} // namespace epi
