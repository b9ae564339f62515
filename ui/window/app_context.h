#pragma once
// Where the workbench keeps things, and what it starts. The application uses
// standard(); tests point everything at temporary folders.
#include <QString>

namespace tacho::ui {

struct AppContext {
    QString historyDir;        // run files: AppDataLocation/runs
    QString profilesDir;       // profile files: AppConfigLocation/profiles
    QString settingsFile;      // window layout: AppConfigLocation/tacho.conf
    bool startSandbox = true;  // start the Local sandbox's redis-server at once
    int keychainTimeoutMs = 3000;

    static AppContext standard();
};

} // namespace tacho::ui
