#pragma once
// A line of text that changes several times a second (live numbers).
// QLabel::setText asks the layout to re-lay out on every change, and that
// request climbs to the window's splitter, which then repaints the whole
// window: ten times a second beside a busy engine, that was most of the GUI
// thread's time. LiveText only repaints itself; its size hint grows when a
// text is wider than any before (a handful of re-layouts per run at most)
// and never shrinks, and text wider than the space given is elided. It is
// opaque: it fills itself with its background role, which must match what
// is behind it (the parent's colour).
#include <QWidget>

namespace tacho::ui {

class LiveText : public QWidget {
    Q_OBJECT
public:
    // `widestExpected` sizes the widget before any text is set.
    explicit LiveText(const QString& widestExpected = {}, QWidget* parent = nullptr);

    QString text() const { return m_text; }
    void setText(const QString& text);
    void clear() { setText({}); }
    void setAlignment(Qt::Alignment alignment);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    int textWidth(const QString& text) const;

    QString m_text;
    QString m_widest;   // the widest text so far: the size hint's width
    Qt::Alignment m_alignment = Qt::AlignLeft | Qt::AlignVCenter;
};

} // namespace tacho::ui
