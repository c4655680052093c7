// gtest/gtest.h - the few googletest macros the package's kernel unit test uses, so that the
// test runs here on the CPU model of AscendC (hswc/checker/ascendc_cpu) without googletest. Test-only:
// TEST_F registers a test, EXPECT_* records a failure and goes on, ASSERT_* ends the test, and
// the main() below runs every test and prints "N passed, M failed". Not a googletest clone.
#ifndef HSWC_UT_SHIM_GTEST_H
#define HSWC_UT_SHIM_GTEST_H

#include <cstdio>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace testing {

class Test {
public:
    virtual ~Test() = default;
    virtual void TestBody() = 0;

protected:
    virtual void SetUp() {}
    virtual void TearDown() {}

private:
    // googletest's own members: a test body calling a helper of one of these names finds the
    // member first and fails to build, there as here.
    void Run();
    bool HasFailure() const;
};

struct Registered {
    std::string name;
    std::function<Test*()> make;
};

inline std::vector<Registered>& Registry()
{
    static std::vector<Registered> tests;
    return tests;
}

inline bool& CurrentFailed()
{
    static bool failed = false;
    return failed;
}

inline int Register(const std::string& name, std::function<Test*()> make)
{
    Registry().push_back({name, std::move(make)});
    return 0;
}

// Collects the `<<` message of a failed check and prints it with the check's location.
class Failure {
public:
    Failure(const char* file, int line, const std::string& what)
    {
        CurrentFailed() = true;
        stream_ << file << ":" << line << ": failure: " << what;
    }
    ~Failure() { std::cerr << stream_.str() << std::endl; }
    template <typename T>
    Failure& operator<<(const T& value)
    {
        stream_ << " " << value;
        return *this;
    }

private:
    std::ostringstream stream_;
};

// `return Voidify() & failure;` ends a test from inside an ASSERT_* with the message attached.
struct Voidify {
    void operator&(const Failure&) {}
};

template <typename A, typename B>
std::string Compared(const char* a, const char* b, const A& x, const B& y, const char* op)
{
    std::ostringstream s;
    s << a << " " << op << " " << b << " (" << +x << " vs " << +y << ")";
    return s.str();
}

}  // namespace testing

// `if (ok) {} else <failure> << message;`: a check is one statement that takes a message.
#define HSWC_CHECK(cond, what, on_fail) \
    if (cond) {                         \
    } else                              \
        on_fail ::testing::Failure(__FILE__, __LINE__, what)
#define HSWC_EXPECT
#define HSWC_ASSERT return ::testing::Voidify() &

#define EXPECT_TRUE(c) HSWC_CHECK((c), #c, HSWC_EXPECT)
#define EXPECT_FALSE(c) HSWC_CHECK(!(c), "!(" #c ")", HSWC_EXPECT)
#define ASSERT_TRUE(c) HSWC_CHECK((c), #c, HSWC_ASSERT)
#define ASSERT_FALSE(c) HSWC_CHECK(!(c), "!(" #c ")", HSWC_ASSERT)
#define HSWC_CMP(a, b, op, on_fail) \
    HSWC_CHECK(((a)op(b)), ::testing::Compared(#a, #b, (a), (b), #op), on_fail)
#define EXPECT_EQ(a, b) HSWC_CMP(a, b, ==, HSWC_EXPECT)
#define EXPECT_NE(a, b) HSWC_CMP(a, b, !=, HSWC_EXPECT)
#define ASSERT_EQ(a, b) HSWC_CMP(a, b, ==, HSWC_ASSERT)
#define ASSERT_NE(a, b) HSWC_CMP(a, b, !=, HSWC_ASSERT)
#define ASSERT_GE(a, b) HSWC_CMP(a, b, >=, HSWC_ASSERT)

#define TEST_F(fixture, name)                                                             \
    class fixture##_##name##_Test : public fixture {                                      \
    public:                                                                               \
        void TestBody() override;                                                         \
    };                                                                                    \
    static const int fixture##_##name##_registered = ::testing::Register(                 \
        #fixture "." #name, [] { return static_cast<::testing::Test*>(new fixture##_##name##_Test); }); \
    void fixture##_##name##_Test::TestBody()

int main()
{
    int passed = 0;
    int failed = 0;
    for (const auto& test : ::testing::Registry()) {
        ::testing::CurrentFailed() = false;
        ::testing::Test* instance = test.make();
        instance->TestBody();
        delete instance;
        const bool ok = !::testing::CurrentFailed();
        std::printf("[%s] %s\n", ok ? "  OK  " : "FAILED", test.name.c_str());
        (ok ? passed : failed) += 1;
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 && passed > 0 ? 0 : 1;
}

#endif  // HSWC_UT_SHIM_GTEST_H
