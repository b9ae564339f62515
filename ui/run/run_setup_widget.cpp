#include "ui/run/run_setup_widget.h"

#include <QApplication>
#include <QButtonGroup>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

#include <limits>

namespace tacho::ui {

namespace {

const char* const kCustomName = "Custom";

// The tooltip of a field: what it does, and the flag people know it by.
QString tip(const QString& what, const QString& flag)
{
    return QStringLiteral("<p>%1</p><p><i>redis-benchmark %2</i></p>").arg(what.toHtmlEscaped(), flag.toHtmlEscaped());
}

QSpinBox* spin(QWidget* parent, int min, int max, const QString& name)
{
    auto* box = new QSpinBox(parent);
    box->setRange(min, max);
    box->setGroupSeparatorShown(true);
    box->setAccessibleName(name);
    box->setAlignment(Qt::AlignRight);
    return box;
}

} // namespace

RunSetupWidget::RunSetupWidget(QList<WorkloadPreset> presets, QWidget* parent)
    : QWidget(parent), m_presets(std::move(presets))
{
    build();
    if (!m_presets.isEmpty())
        selectPreset(m_presets.first().id);
    else
        writeWidgets(WorkloadSettings {});
    validate();
}

void RunSetupWidget::build()
{
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll);
    auto* content = new QWidget(scroll);
    scroll->setWidget(content);
    auto* layout = new QVBoxLayout(content);

    // Preset and the command-line buttons.
    auto* top = new QHBoxLayout;
    auto* presetLabel = new QLabel(tr("&Preset:"), content);
    m_preset = new QComboBox(content);
    m_preset->setAccessibleName(tr("Workload preset"));
    m_preset->addItem(tr(kCustomName), QString());
    for (const WorkloadPreset& p : m_presets)
        m_preset->addItem(p.name, p.id);
    m_preset->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    presetLabel->setBuddy(m_preset);
    m_paste = new QPushButton(tr("Paste &command line…"), content);
    m_paste->setToolTip(tr("Fill the form from a redis-benchmark or memtier_benchmark command line"));
    m_copy = new QPushButton(tr("C&opy as command line"), content);
    m_copy->setToolTip(tr("Copy the equivalent tacho-cli command line to the clipboard"));
    top->addWidget(presetLabel);
    top->addWidget(m_preset);
    top->addStretch(1);
    top->addWidget(m_paste);
    top->addWidget(m_copy);
    layout->addLayout(top);
    m_presetDescription = new QLabel(content);
    m_presetDescription->setWordWrap(true);
    m_presetDescription->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_presetDescription);

    auto* grid = new QGridLayout;
    layout->addLayout(grid);

    // Connections & threads.
    auto* connBox = new QGroupBox(tr("Connections && threads"), content);
    auto* connForm = new QFormLayout(connBox);
    m_connections = spin(connBox, 1, 100000, tr("Connections"));
    m_connections->setToolTip(tip(tr("Parallel connections to the server."), QStringLiteral("-c <clients>")));
    m_threads = spin(connBox, 1, 64, tr("Threads"));
    m_threads->setToolTip(tip(tr("Worker threads sharing the connections; at most the number of connections."), QStringLiteral("--threads <num>")));
    m_keepAlive = new QCheckBox(tr("Keep connections open"), connBox);
    m_keepAlive->setToolTip(tip(tr("Off: reconnect for every request."), QStringLiteral("-k 1|0")));
    connForm->addRow(tr("Co&nnections:"), m_connections);
    connForm->addRow(tr("&Threads:"), m_threads);
    connForm->addRow(QString(), m_keepAlive);
    m_replyTimeout = new QDoubleSpinBox(connBox);
    m_replyTimeout->setRange(0, 3600);
    m_replyTimeout->setDecimals(3);
    m_replyTimeout->setSuffix(tr(" s"));
    m_replyTimeout->setSpecialValueText(tr("wait forever"));
    m_replyTimeout->setAlignment(Qt::AlignRight);
    m_replyTimeout->setAccessibleName(tr("Reply timeout in seconds"));
    m_replyTimeout->setToolTip(tip(tr("A connection with requests in flight that receives nothing for this long is counted as lost and the run "
                                      "fails saying so, so a server that stops answering cannot hold a run forever. 0: wait forever."),
                                   QStringLiteral("--reply-timeout <sec> (Tacho, both dialects; default 5)")));
    connForm->addRow(tr("Reply t&imeout:"), m_replyTimeout);
    grid->addWidget(connBox, 0, 0);

    // Pipeline.
    auto* pipeBox = new QGroupBox(tr("Pipeline"), content);
    auto* pipeForm = new QFormLayout(pipeBox);
    m_pipeline = spin(pipeBox, 1, 100000, tr("Pipeline depth"));
    m_pipeline->setToolTip(tip(tr("Requests in flight per connection (1: no pipelining)."), QStringLiteral("-P <numreq>")));
    pipeForm->addRow(tr("&Depth:"), m_pipeline);
    m_rate = new QDoubleSpinBox(pipeBox);
    m_rate->setRange(0, 1e9);
    m_rate->setDecimals(0);
    m_rate->setSuffix(tr(" req/s"));
    m_rate->setSpecialValueText(tr("closed loop (as fast as replies come)"));
    m_rate->setAlignment(Qt::AlignRight);
    m_rate->setAccessibleName(tr("Rate in requests per second, open loop"));
    m_rate->setToolTip(tip(tr("Open loop: send this many requests per second in total, spread over the connections, whatever the server does; "
                              "latency counts from when each request was due, so queueing shows. 0: closed loop."),
                           QStringLiteral("--rate <n> (Tacho; memtier: --rate-limiting per connection)")));
    pipeForm->addRow(tr("R&ate:"), m_rate);
    grid->addWidget(pipeBox, 1, 0);

    // Amount: requests or duration, warm-up.
    auto* amountBox = new QGroupBox(tr("How long"), content);
    auto* amountForm = new QFormLayout(amountBox);
    m_byRequests = new QRadioButton(tr("&Requests per test:"), amountBox);
    m_byDuration = new QRadioButton(tr("D&uration per test:"), amountBox);
    auto* amountGroup = new QButtonGroup(this);
    amountGroup->addButton(m_byRequests);
    amountGroup->addButton(m_byDuration);
    m_requests = spin(amountBox, 1, std::numeric_limits<int>::max(), tr("Requests per test"));
    m_requests->setToolTip(tip(tr("Requests per test over all connections."), QStringLiteral("-n <requests>")));
    m_byRequests->setToolTip(m_requests->toolTip());
    m_duration = new QDoubleSpinBox(amountBox);
    m_duration->setRange(0.1, 86400);
    m_duration->setDecimals(1);
    m_duration->setSuffix(tr(" s"));
    m_duration->setAlignment(Qt::AlignRight);
    m_duration->setAccessibleName(tr("Duration per test in seconds"));
    m_duration->setToolTip(tip(tr("Run each test for this long instead of a number of requests."), QStringLiteral("--duration <sec> (Tacho)")));
    m_byDuration->setToolTip(m_duration->toolTip());
    m_warmup = new QDoubleSpinBox(amountBox);
    m_warmup->setRange(0, 3600);
    m_warmup->setDecimals(1);
    m_warmup->setSuffix(tr(" s"));
    m_warmup->setAlignment(Qt::AlignRight);
    m_warmup->setAccessibleName(tr("Warm-up per test in seconds"));
    m_warmup->setToolTip(tip(tr("Load the server this long before measuring each test; left out of the results."), QStringLiteral("--warmup <sec> (Tacho)")));
    m_loop = new QCheckBox(tr("Repeat until stopped"), amountBox);
    m_loop->setToolTip(tip(tr("Run the tests again and again until Stop."), QStringLiteral("-l")));
    amountForm->addRow(m_byRequests, m_requests);
    amountForm->addRow(m_byDuration, m_duration);
    amountForm->addRow(tr("&Warm-up:"), m_warmup);
    amountForm->addRow(QString(), m_loop);
    grid->addWidget(amountBox, 0, 1);

    // Keys & values.
    auto* keyBox = new QGroupBox(tr("Keys && values"), content);
    auto* keyForm = new QFormLayout(keyBox);
    m_keyspace = spin(keyBox, 0, std::numeric_limits<int>::max(), tr("Keyspace"));
    m_keyspace->setSpecialValueText(tr("one fixed key"));
    m_keyspace->setToolTip(tip(tr("Random keys: __rand_int__ becomes a number below this, drawn for every request. 0 sends the same key every time."), QStringLiteral("-r <keyspacelen>")));
    m_valueSize = spin(keyBox, 1, 512 * 1024 * 1024, tr("Value size in bytes"));
    m_valueSize->setSuffix(tr(" B"));
    m_valueSize->setToolTip(tip(tr("Size of the values SET, LPUSH, HSET, MSET and XADD write."), QStringLiteral("-d <size>")));
    m_seedGiven = new QCheckBox(tr("Fi&xed seed:"), keyBox);
    m_seed = spin(keyBox, 0, std::numeric_limits<int>::max(), tr("Random seed"));
    m_seed->setToolTip(tip(tr("Seed for the random keys, to repeat a run exactly (default: from the clock)."), QStringLiteral("--seed <num>")));
    m_seedGiven->setToolTip(m_seed->toolTip());
    keyForm->addRow(tr("&Keyspace:"), m_keyspace);
    keyForm->addRow(tr("&Value size:"), m_valueSize);
    keyForm->addRow(m_seedGiven, m_seed);
    m_cleanup = new QCheckBox(tr("C&lean up keys after the run"), keyBox);
    m_cleanup->setToolTip(tip(tr("After the run, remove the keys it wrote (found with SCAN by their pattern, removed with UNLINK, on every "
                                 "master of a cluster) and record how many in the run file. Other keys are left alone."),
                              QStringLiteral("--cleanup (Tacho, both dialects)")));
    keyForm->addRow(QString(), m_cleanup);
    grid->addWidget(keyBox, 1, 1);

    // Commands.
    auto* cmdBox = new QGroupBox(tr("Commands"), content);
    auto* cmdForm = new QFormLayout(cmdBox);
    m_suite = new QRadioButton(tr("&Built-in tests:"), cmdBox);
    m_custom = new QRadioButton(tr("Cu&stom command:"), cmdBox);
    auto* cmdGroup = new QButtonGroup(this);
    cmdGroup->addButton(m_suite);
    cmdGroup->addButton(m_custom);
    m_tests = new QLineEdit(cmdBox);
    m_tests->setPlaceholderText(tr("all 21 tests; or a list such as set,get,lpush,lrange"));
    m_tests->setAccessibleName(tr("Built-in tests"));
    m_tests->setToolTip(tip(tr("Comma-separated built-in tests: ping, set, get, incr, lpush, rpush, lpop, rpop, sadd, hset, spop, zadd, zpopmin, lrange (or lrange_100 … lrange_600), mset, xadd. Empty: all of them."), QStringLiteral("-t <tests>")));
    m_suite->setToolTip(m_tests->toolTip());
    m_command = new QLineEdit(cmdBox);
    m_command->setPlaceholderText(tr("e.g. hmget hash1 key1   (__rand_int__ is replaced by a random key number)"));
    m_command->setAccessibleName(tr("Custom command"));
    m_command->setToolTip(tip(tr("Any command with its arguments, as on a redis-benchmark command line; quotes work as in a shell."), QStringLiteral("[COMMAND ARGS...]")));
    m_custom->setToolTip(m_command->toolTip());
    m_memtier = new QRadioButton(tr("&memtier workload:"), cmdBox);
    cmdGroup->addButton(m_memtier);
    m_memtierLine = new QLineEdit(cmdBox);
    m_memtierLine->setReadOnly(true);
    m_memtierLine->setPlaceholderText(tr("paste a memtier_benchmark line to use its mix, keys and values"));
    m_memtierLine->setAccessibleName(tr("memtier workload"));
    m_memtierLine->setToolTip(tip(tr("A pasted memtier_benchmark line, kept whole (without its target and output options): it defines "
                                     "connections, mix, keys and values; the fields above describe it. Choose another command to edit the form again."),
                                  QStringLiteral("tacho-cli memtier …")));
    m_memtier->setToolTip(m_memtierLine->toolTip());
    m_memtier->setEnabled(false);
    cmdForm->addRow(m_suite, m_tests);
    cmdForm->addRow(m_custom, m_command);
    cmdForm->addRow(m_memtier, m_memtierLine);
    grid->addWidget(cmdBox, 2, 0, 1, 2);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);

    m_error = new QLabel(content);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setAccessibleName(tr("Validation message"));
    QPalette errorPalette = m_error->palette();
    errorPalette.setColor(QPalette::WindowText, QColor(0xc0, 0x39, 0x2b));
    m_error->setPalette(errorPalette);
    layout->addWidget(m_error);
    m_note = new QLabel(content);
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note->setAccessibleName(tr("Note"));
    layout->addWidget(m_note);
    layout->addStretch(1);

    // Every edit re-validates; the preset combo follows the form.
    for (QSpinBox* box : { m_connections, m_threads, m_pipeline, m_requests, m_keyspace, m_valueSize, m_seed })
        connect(box, &QSpinBox::valueChanged, this, &RunSetupWidget::onEdited);
    for (QDoubleSpinBox* box : { m_duration, m_warmup, m_rate, m_replyTimeout })
        connect(box, &QDoubleSpinBox::valueChanged, this, &RunSetupWidget::onEdited);
    connect(m_memtier, &QAbstractButton::toggled, this, &RunSetupWidget::updateMemtierMode);
    for (QAbstractButton* button : std::initializer_list<QAbstractButton*> { m_keepAlive, m_byRequests, m_byDuration, m_loop, m_suite, m_custom, m_seedGiven, m_memtier, m_cleanup })
        connect(button, &QAbstractButton::toggled, this, &RunSetupWidget::onEdited);
    for (QLineEdit* edit : { m_tests, m_command })
        connect(edit, &QLineEdit::textEdited, this, &RunSetupWidget::onEdited);
    // Typing into a field selects its radio button.
    connect(m_tests, &QLineEdit::textEdited, m_suite, [this] { m_suite->setChecked(true); });
    connect(m_command, &QLineEdit::textEdited, m_custom, [this] { m_custom->setChecked(true); });
    connect(m_preset, &QComboBox::activated, this, [this](int index) {
        const QString id = m_preset->itemData(index).toString();
        if (!id.isEmpty())
            selectPreset(id);
    });
    connect(m_paste, &QPushButton::clicked, this, &RunSetupWidget::pasteFromDialog);
    connect(m_copy, &QPushButton::clicked, this, &RunSetupWidget::copyCommandLine);
}

WorkloadSettings RunSetupWidget::readWidgets() const
{
    WorkloadSettings s;
    s.connections = m_connections->value();
    s.threads = m_threads->value();
    s.keepAlive = m_keepAlive->isChecked();
    s.pipeline = m_pipeline->value();
    s.amount = m_byDuration->isChecked() ? WorkloadSettings::Amount::Duration : WorkloadSettings::Amount::Requests;
    s.requests = static_cast<quint64>(m_requests->value());
    s.durationSeconds = m_duration->value();
    s.warmupSeconds = m_warmup->value();
    s.rate = m_rate->value();
    s.loop = m_loop->isChecked();
    s.keyspace = static_cast<quint64>(m_keyspace->value());
    s.valueSize = static_cast<quint32>(m_valueSize->value());
    s.seedGiven = m_seedGiven->isChecked();
    s.seed = s.seedGiven ? static_cast<quint64>(m_seed->value()) : 0;
    s.replyTimeoutSeconds = m_replyTimeout->value();
    s.cleanup = m_cleanup->isChecked();
    s.commands = m_custom->isChecked() ? WorkloadSettings::Commands::Custom : WorkloadSettings::Commands::Suite;
    if (m_memtier->isChecked()) {
        s.commands = WorkloadSettings::Commands::Memtier;
        s.memtierArguments = m_memtierArguments;
    }
    s.tests = m_tests->text().trimmed();
    s.customCommand = m_command->text().trimmed();
    return s;
}

void RunSetupWidget::writeWidgets(const WorkloadSettings& s)
{
    m_updating = true;
    const auto clampInt = [](quint64 v) { return static_cast<int>(std::min<quint64>(v, std::numeric_limits<int>::max())); };
    m_connections->setValue(s.connections);
    m_threads->setValue(s.threads);
    m_keepAlive->setChecked(s.keepAlive);
    m_pipeline->setValue(s.pipeline);
    (s.amount == WorkloadSettings::Amount::Duration ? m_byDuration : m_byRequests)->setChecked(true);
    m_requests->setValue(clampInt(s.requests == 0 ? 100000 : s.requests));
    m_duration->setValue(s.durationSeconds);
    m_warmup->setValue(s.warmupSeconds);
    m_rate->setValue(s.rate);
    m_loop->setChecked(s.loop);
    m_keyspace->setValue(clampInt(s.keyspace));
    m_valueSize->setValue(static_cast<int>(s.valueSize));
    m_seedGiven->setChecked(s.seedGiven);
    m_seed->setValue(clampInt(s.seed));
    m_replyTimeout->setValue(s.replyTimeoutSeconds);
    m_cleanup->setChecked(s.cleanup);
    m_memtierArguments = s.commands == WorkloadSettings::Commands::Memtier ? s.memtierArguments : QStringList {};
    m_memtierLine->setText(m_memtierArguments.join(QLatin1Char(' ')));
    m_memtier->setEnabled(!m_memtierArguments.isEmpty());
    (s.commands == WorkloadSettings::Commands::Memtier ? m_memtier
     : s.commands == WorkloadSettings::Commands::Custom ? m_custom
                                                         : m_suite)->setChecked(true);
    updateMemtierMode();
    m_tests->setText(s.tests);
    m_command->setText(s.customCommand);
    m_updating = false;
}

WorkloadSettings RunSetupWidget::settings() const
{
    return readWidgets();
}

void RunSetupWidget::setSettings(const WorkloadSettings& settings)
{
    writeWidgets(settings);
    onEdited();
}

bool RunSetupWidget::selectPreset(const QString& nameOrId)
{
    const auto preset = PresetLibrary::find(m_presets, nameOrId);
    if (!preset)
        return false;
    writeWidgets(preset->settings);
    onEdited();
    return true;
}

QString RunSetupWidget::workloadName() const
{
    const QString id = m_preset->currentData().toString();
    return id.isEmpty() ? tr(kCustomName) : m_preset->currentText();
}

void RunSetupWidget::onEdited()
{
    if (m_updating)
        return;
    // The preset shown is the one the form equals, else "Custom".
    const WorkloadSettings now = readWidgets();
    int match = 0;
    for (qsizetype i = 0; i < m_presets.size(); ++i) {
        if (m_presets.at(i).settings == now) {
            match = static_cast<int>(i) + 1;
            break;
        }
    }
    const QString before = workloadName();
    m_preset->setCurrentIndex(match);
    m_presetDescription->setText(match > 0 ? m_presets.at(match - 1).description + tr("  (from: %1)").arg(m_presets.at(match - 1).source)
                                           : tr("Your own workload."));
    m_threads->setMaximum(std::min(64, std::max(1, m_connections->value())));
    validate();
    if (workloadName() != before)
        Q_EMIT workloadNameChanged(workloadName());
    Q_EMIT settingsChanged();
}

QWidget* RunSetupWidget::widgetForOption(const QString& message) const
{
    const QString option = message.section(QLatin1Char(':'), 0, 0).trimmed();
    if (option == QLatin1String("-c")) return m_connections;
    if (option == QLatin1String("--threads")) return m_threads;
    if (option == QLatin1String("-P")) return m_pipeline;
    if (option == QLatin1String("-n")) return m_requests;
    if (option == QLatin1String("--duration")) return m_duration;
    if (option == QLatin1String("--warmup")) return m_warmup;
    if (option == QLatin1String("-r")) return m_keyspace;
    if (option == QLatin1String("-d")) return m_valueSize;
    if (option == QLatin1String("--reply-timeout")) return m_replyTimeout;
    if (option == QLatin1String("-t")) return m_tests;
    if (option == QLatin1String("custom command")) return m_command;
    if (m_custom->isChecked() && option.startsWith(QLatin1String("unrecognized option"))) return m_command;
    return nullptr;
}

void RunSetupWidget::validate()
{
    QString error;
    const bool valid = runConfig(&error).has_value();
    m_message = valid ? QString() : error;
    m_error->setText(valid ? QString() : QStringLiteral("⚠ ") + error);
    m_error->setVisible(!valid);
    // Mark the field the parser named.
    for (QWidget* w : std::initializer_list<QWidget*> { m_connections, m_threads, m_pipeline, m_requests, m_duration, m_warmup, m_keyspace, m_valueSize, m_tests, m_command,
                                                        m_replyTimeout })
        w->setStyleSheet(QString());
    if (QWidget* w = valid ? nullptr : widgetForOption(error)) {
        w->setStyleSheet(QStringLiteral("border: 1px solid #c0392b;"));
        w->setToolTip(w->toolTip());
    }
    if (valid != m_valid) {
        m_valid = valid;
        Q_EMIT validityChanged(valid);
    }
}

std::optional<engine::RunConfig> RunSetupWidget::runConfig(QString* error, bool cluster) const
{
    return readWidgets().toRunConfig(error, cluster);
}

namespace {

QStringList targetArgumentsFor(const ConnectionProfile& target, const WorkloadSettings& settings)
{
    return target.targetArguments(settings.commands == WorkloadSettings::Commands::Memtier
                                      ? ConnectionProfile::Dialect::Memtier
                                      : ConnectionProfile::Dialect::RedisBenchmark);
}

} // namespace

QString RunSetupWidget::commandLine() const
{
    const WorkloadSettings settings = readWidgets();
    return settings.toCommandLine(targetArgumentsFor(m_target, settings));
}

QString RunSetupWidget::seriesCommandLine() const
{
    WorkloadSettings settings = readWidgets();
    settings.cleanup = false;
    return settings.toCommandLine(targetArgumentsFor(m_target, settings));
}

bool RunSetupWidget::applyCommandLine(const QString& line, QString* message, WorkloadSettings::Target* target)
{
    QString error;
    QStringList ignored;
    WorkloadSettings::Target found;
    const auto settings = WorkloadSettings::fromCommandLine(line, &error, &ignored, &found);
    if (!settings) {
        if (message)
            *message = error;
        return false;
    }
    writeWidgets(*settings);
    onEdited();
    QStringList notes;
    notes << tr("Filled from the command line.");
    if (!ignored.isEmpty())
        notes << tr("Ignored (output options; the workbench shows and exports results itself): %1.").arg(ignored.join(QStringLiteral(", ")));
    if (found.given)
        notes << tr("Target options (%1) are taken from the selected target, not from the line.").arg(found.options.join(QLatin1Char(' ')));
    if (message)
        *message = notes.join(QLatin1Char(' '));
    if (target)
        *target = found;
    showNote(notes.join(QLatin1Char(' ')), false);
    return true;
}

void RunSetupWidget::pasteFromDialog()
{
    QString initial = QApplication::clipboard()->text().trimmed();
    if (!initial.contains(QLatin1String("redis-benchmark")) && !initial.contains(QLatin1String("memtier"))
        && !initial.startsWith(QLatin1Char('-')))
        initial.clear();
    bool ok = false;
    const QString line = QInputDialog::getMultiLineText(this, tr("Paste command line"),
                                                        tr("A redis-benchmark command line (with or without \"redis-benchmark\"),\n"
                                                           "or a memtier_benchmark line (starting with \"memtier_benchmark\"):"),
                                                        initial, &ok);
    if (!ok || line.trimmed().isEmpty())
        return;
    QString message;
    WorkloadSettings::Target target;
    if (!applyCommandLine(line, &message, &target)) {
        showNote(tr("Cannot use that line: %1").arg(message), true);
        QMessageBox::warning(this, tr("Paste command line"), tr("That command line cannot be used:\n\n%1").arg(message));
        return;
    }
    if (target.given)
        Q_EMIT targetPasted(target);
}

void RunSetupWidget::copyCommandLine()
{
    const QString line = commandLine();
    QApplication::clipboard()->setText(line);
    // The password stays in the keychain: the line never carries it.
    QString passwordNote;
    if (m_target.hasPassword)
        passwordNote = readWidgets().commands == WorkloadSettings::Commands::Memtier && !m_target.user.isEmpty()
            ? tr("  (add -a %1:PASSWORD: the target has one)").arg(m_target.user)
            : tr("  (add -a PASSWORD: the target has one)");
    showNote(tr("Copied: %1").arg(line) + passwordNote, false);
}

void RunSetupWidget::updateMemtierMode()
{
    const bool memtier = m_memtier->isChecked();
    for (QWidget* field : std::initializer_list<QWidget*> { m_connections, m_threads, m_keepAlive, m_pipeline, m_byRequests, m_byDuration,
                                                            m_requests, m_duration, m_warmup, m_rate, m_keyspace, m_valueSize,
                                                            m_seedGiven, m_seed, m_loop })
        field->setEnabled(!memtier && !m_readOnly);
}

void RunSetupWidget::showNote(const QString& text, bool error)
{
    QPalette p = palette();
    if (error)
        p.setColor(QPalette::WindowText, QColor(0xc0, 0x39, 0x2b));
    m_note->setPalette(p);
    m_note->setText(text);
}

void RunSetupWidget::setReadOnly(bool readOnly)
{
    m_readOnly = readOnly;
    for (QWidget* w : std::initializer_list<QWidget*> { m_preset, m_paste, m_suite, m_custom, m_tests, m_command, m_replyTimeout,
                                                        m_cleanup })
        w->setEnabled(!readOnly);
    m_memtier->setEnabled(!readOnly && !m_memtierArguments.isEmpty());
    updateMemtierMode();
}

} // namespace tacho::ui
