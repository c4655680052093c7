// nlohmann/json.hpp - hswc's stand-in for the JSON library's header, written for hswc (it holds
// none of nlohmann/json's code), for the host tilings that parse their compile info with it
// (ops-nn's Sigmoid and SoftmaxGradExt on arch35: `nlohmann::json::parse(context->GetCompiledJson())`
// into a std::unique_ptr<nlohmann::json> that nothing reads). The checker adds its folder with
// -idirafter (hswc/checker/host_tiling.py), so the real library wins wherever the build finds one
// ($JSON_SOURCE_PATH/include, $CANN_3RD_LIB_PATH/json/include, the nlohmann_json Python package,
// the compiler's own include path).
//
// What it has: the type nlohmann::json, json::parse of a C string or std::string, which checks
// that the text is one JSON value (RFC 8259's grammar, whitespace around it) and throws
// json::parse_error (a json::exception, a std::exception) otherwise, and json::dump, which gives
// the parsed text back. A tiling that uses more (operator[], get<T>(), items(), ...) does not
// compile against it; the checker then names the stand-in and where the real library is looked
// for.
#ifndef HSWC_NLOHMANN_JSON_STAND_IN_HPP
#define HSWC_NLOHMANN_JSON_STAND_IN_HPP

#include <cstddef>
#include <stdexcept>
#include <string>

namespace nlohmann {

class json {
public:
    class exception : public std::runtime_error {
    public:
        explicit exception(const std::string& what) : std::runtime_error(what) {}
    };
    class parse_error : public exception {
    public:
        parse_error(std::size_t at, const std::string& what)
            : exception("[json.exception.parse_error] at byte " + std::to_string(at) + ": " + what), byte(at)
        {
        }
        std::size_t byte;
    };

    json() = default;

    static json parse(const std::string& text)
    {
        Reader r{text, 0};
        r.Value();
        r.Space();
        if (r.at != text.size()) {
            throw parse_error(r.at, "text after the JSON value");
        }
        json j;
        j.text_ = text;
        return j;
    }
    static json parse(const char* text)
    {
        if (text == nullptr) {
            throw parse_error(0, "no text (a null pointer)");
        }
        return parse(std::string(text));
    }

    std::string dump() const { return text_; }

private:
    struct Reader {
        const std::string& s;
        std::size_t at;

        [[noreturn]] void Fail(const char* what) const { throw parse_error(at, what); }
        char Peek() const { return at < s.size() ? s[at] : '\0'; }
        void Space()
        {
            while (at < s.size() && (s[at] == ' ' || s[at] == '\t' || s[at] == '\n' || s[at] == '\r')) {
                ++at;
            }
        }
        void Expect(char c)
        {
            if (Peek() != c) {
                Fail("unexpected character");
            }
            ++at;
        }
        void Word(const char* w)
        {
            for (; *w != '\0'; ++w) {
                Expect(*w);
            }
        }
        void Digits()
        {
            if (Peek() < '0' || Peek() > '9') {
                Fail("a digit expected");
            }
            while (Peek() >= '0' && Peek() <= '9') {
                ++at;
            }
        }
        void Number()
        {
            if (Peek() == '-') {
                ++at;
            }
            if (Peek() == '0') {
                ++at;
            } else {
                Digits();
            }
            if (Peek() == '.') {
                ++at;
                Digits();
            }
            if (Peek() == 'e' || Peek() == 'E') {
                ++at;
                if (Peek() == '+' || Peek() == '-') {
                    ++at;
                }
                Digits();
            }
        }
        void String()
        {
            Expect('"');
            while (Peek() != '"') {
                const char c = Peek();
                if (at >= s.size() || static_cast<unsigned char>(c) < 0x20) {
                    Fail("an unterminated string or a control character in it");
                }
                ++at;
                if (c == '\\') {
                    const char e = Peek();
                    ++at;
                    if (e == 'u') {
                        for (int i = 0; i < 4; ++i) {
                            const char h = Peek();
                            const bool hex = (h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F');
                            if (!hex) {
                                Fail("four hex digits expected after \\u");
                            }
                            ++at;
                        }
                    } else if (std::string("\"\\/bfnrt").find(e) == std::string::npos || e == '\0') {
                        Fail("an unknown escape");
                    }
                }
            }
            ++at;
        }
        template <typename Item>
        void Sequence(char close, Item item)
        {
            ++at;
            Space();
            if (Peek() == close) {
                ++at;
                return;
            }
            for (;;) {
                item();
                Space();
                if (Peek() == close) {
                    ++at;
                    return;
                }
                Expect(',');
            }
        }
        void Value()
        {
            Space();
            switch (Peek()) {
                case '{':
                    Sequence('}', [this] {
                        Space();
                        String();
                        Space();
                        Expect(':');
                        Value();
                    });
                    return;
                case '[':
                    Sequence(']', [this] { Value(); });
                    return;
                case '"': String(); return;
                case 't': Word("true"); return;
                case 'f': Word("false"); return;
                case 'n': Word("null"); return;
                default: Number(); return;
            }
        }
    };

    std::string text_;
};

}  // namespace nlohmann

#endif  // HSWC_NLOHMANN_JSON_STAND_IN_HPP
