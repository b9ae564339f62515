#include "ui/widgets/flow_layout.h"

#include <QWidget>

#include <algorithm>

namespace tacho::ui {

FlowLayout::FlowLayout(QWidget* parent, int spacing) : QLayout(parent), m_spacing(spacing)
{
    setContentsMargins(0, 0, 0, 0);
}

FlowLayout::~FlowLayout()
{
    while (QLayoutItem* item = takeAt(0))
        delete item;
}

void FlowLayout::addItem(QLayoutItem* item)
{
    m_items.append(item);
}

QLayoutItem* FlowLayout::takeAt(int index)
{
    if (index < 0 || index >= m_items.size())
        return nullptr;
    m_stretchBefore.removeAll(index);
    for (int& i : m_stretchBefore)
        if (i > index)
            --i;
    return m_items.takeAt(index);
}

void FlowLayout::addStretch()
{
    m_stretchBefore.append(int(m_items.size()));
}

QSize FlowLayout::minimumSize() const
{
    QSize size;
    for (const QLayoutItem* item : m_items)
        if (!item->isEmpty())
            size = size.expandedTo(item->minimumSize());
    const QMargins m = contentsMargins();
    return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowLayout::sizeHint() const
{
    // On one row, as wide as all items together.
    int width = 0, height = 0;
    for (const QLayoutItem* item : m_items) {
        if (item->isEmpty())
            continue;
        width += (width ? m_spacing : 0) + item->sizeHint().width();
        height = std::max(height, item->sizeHint().height());
    }
    const QMargins m = contentsMargins();
    return { width + m.left() + m.right(), height + m.top() + m.bottom() };
}

void FlowLayout::setGeometry(const QRect& rect)
{
    QLayout::setGeometry(rect);
    arrange(rect, true);
}

int FlowLayout::arrange(const QRect& rect, bool place) const
{
    const QRect area = rect.marginsRemoved(contentsMargins());
    int x = area.x(), y = area.y(), rowHeight = 0;
    // Each row: its items, placed once the row is complete (a stretch pushes the rest right).
    QList<QPair<QLayoutItem*, int>> row;   // item, index
    const auto placeRow = [&] {
        if (!place || row.isEmpty())
            return;
        int used = 0;
        for (const auto& [item, index] : row)
            used += (used ? m_spacing : 0) + item->sizeHint().width();
        const int slack = std::max(0, area.width() - used);
        int left = area.x();
        for (const auto& [item, index] : row) {
            if (m_stretchBefore.contains(index) && index != row.first().second)
                left += slack;
            const QSize size = item->sizeHint().boundedTo(QSize(area.width(), QWIDGETSIZE_MAX));
            item->setGeometry(QRect(QPoint(left, y + (rowHeight - size.height()) / 2), size));
            left += size.width() + m_spacing;
        }
    };
    for (int i = 0; i < m_items.size(); ++i) {
        QLayoutItem* item = m_items[i];
        if (item->isEmpty())
            continue;
        const QSize size = item->sizeHint();
        if (!row.isEmpty() && x + size.width() > area.right() + 1) {
            placeRow();
            row.clear();
            x = area.x();
            y += rowHeight + m_spacing;
            rowHeight = 0;
        }
        row.append({ item, i });
        x += size.width() + m_spacing;
        rowHeight = std::max(rowHeight, size.height());
    }
    placeRow();
    const QMargins m = contentsMargins();
    return y + rowHeight - rect.y() + m.bottom();
}

} // namespace tacho::ui
