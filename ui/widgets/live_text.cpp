#include "ui/widgets/live_text.h"

#include <QAccessible>
#include <QEvent>
#include <QPainter>
#include <QStyle>

namespace tacho::ui {

LiveText::LiveText(const QString& widestExpected, QWidget* parent) : QWidget(parent), m_widest(widestExpected)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    // Opaque (Qt fills it with its background role): a change repaints this
    // widget alone. Otherwise every ancestor up to the window repaints the
    // area behind it first (the tab widget's frame, the splitters, the
    // window), several times a second.
    setAutoFillBackground(true);
}

void LiveText::setText(const QString& text)
{
    if (text == m_text)
        return;
    m_text = text;
    if (textWidth(text) > textWidth(m_widest)) {
        m_widest = text;
        updateGeometry();
    }
    if (QAccessible::isActive())
        setAccessibleDescription(text);   // what a screen reader reads as the value
    update();
}

void LiveText::setAlignment(Qt::Alignment alignment)
{
    m_alignment = alignment;
    update();
}

int LiveText::textWidth(const QString& text) const
{
    return fontMetrics().horizontalAdvance(text);
}

QSize LiveText::sizeHint() const
{
    return { textWidth(m_widest) + 2, fontMetrics().height() };
}

QSize LiveText::minimumSizeHint() const
{
    return sizeHint();
}

void LiveText::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QString shown = fontMetrics().elidedText(m_text, Qt::ElideRight, width());
    style()->drawItemText(&painter, rect(), static_cast<int>(m_alignment), palette(), isEnabled(), shown, foregroundRole());
}

void LiveText::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        updateGeometry();
    QWidget::changeEvent(event);
}

} // namespace tacho::ui
