/** Everything NODE_ENV=production needs: a real provider, SMTP, an explicit secret and an https address. */
export const PRODUCTION_ENV: Readonly<Record<string, string>> = {
  NODE_ENV: 'production',
  PAYMENT_PROVIDER: 'btcpay',
  BTCPAY_URL: 'https://btcpay.example.com',
  BTCPAY_API_KEY: 'api-key',
  BTCPAY_STORE_ID: 'store-1',
  BTCPAY_WEBHOOK_SECRET: 'webhook-secret',
  SMTP_URL: 'smtps://user:pw@mail.example.com:465',
  APP_SECRET: 'a-production-secret-of-more-than-32-bytes-0123456789',
  PUBLIC_URL: 'https://invest.example.com',
};
