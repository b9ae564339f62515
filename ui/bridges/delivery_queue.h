#pragma once
// Hands events from engine threads to the GUI thread in batches, at most
// one batch per `minIntervalMs`: push() (any thread) appends under a mutex
// and posts a single queued wake-up per batch; the GUI thread takes
// everything queued by then and passes it to `deliver` in order.
#include <QElapsedTimer>
#include <QMetaObject>
#include <QObject>
#include <QTimer>

#include <functional>
#include <mutex>
#include <vector>

namespace tacho::ui {

template <class Event>
class DeliveryQueue {
public:
    using Deliver = std::function<void(std::vector<Event>& events)>;

    // `context` lives on the GUI thread and outlives every push().
    DeliveryQueue(QObject* context, int minIntervalMs, Deliver deliver)
        : m_context(context), m_minIntervalMs(minIntervalMs), m_deliver(std::move(deliver))
    {
        m_timer.setSingleShot(true);
        QObject::connect(&m_timer, &QTimer::timeout, context, [this] { drain(); });
        m_sinceDelivery.start();
    }

    void push(Event event)   // any thread
    {
        bool post = false;
        {
            std::lock_guard lock(m_mutex);
            m_pending.push_back(std::move(event));
            post = !m_wakePosted;
            m_wakePosted = true;
        }
        if (post)
            QMetaObject::invokeMethod(m_context, [this] { drain(); }, Qt::QueuedConnection);
    }

    int deliveries() const { return m_deliveries; }   // GUI thread

private:
    void drain()   // GUI thread
    {
        const qint64 since = m_sinceDelivery.elapsed();
        if (m_deliveries > 0 && since < m_minIntervalMs) {
            if (!m_timer.isActive())
                m_timer.start(static_cast<int>(m_minIntervalMs - since));
            return;
        }
        std::vector<Event> events;
        {
            std::lock_guard lock(m_mutex);
            events.swap(m_pending);
            m_wakePosted = false;
        }
        if (events.empty())
            return;
        m_sinceDelivery.restart();
        ++m_deliveries;
        m_deliver(events);
    }

    QObject* m_context;
    int m_minIntervalMs;
    Deliver m_deliver;
    std::mutex m_mutex;
    std::vector<Event> m_pending;
    bool m_wakePosted = false;
    QElapsedTimer m_sinceDelivery;
    QTimer m_timer;
    int m_deliveries = 0;
};

} // namespace tacho::ui
