#pragma once
// Test helper: starts a fixture (RedisServer, FakeServer, ScriptedServer, NutcrackerProxy,
// RedisCluster: anything with bool start(QString* error)) inside a Qt Test function, failing
// the test with the fixture's own message when it cannot start.
//
//   FakeServer fake({ .behaviour = FakeServer::Behaviour::Silent });
//   TACHO_VERIFY_STARTED(fake);
#include <QString>
#include <QtTest>

#define TACHO_VERIFY_STARTED(fixture)                                                    \
    do {                                                                                 \
        QString tachoStartError;                                                         \
        QVERIFY2((fixture).start(&tachoStartError), qPrintable(tachoStartError));        \
    } while (false)
